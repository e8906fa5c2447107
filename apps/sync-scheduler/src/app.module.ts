import { Module, type DynamicModule } from '@nestjs/common';
import { messagingProviders, RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { EndDatesSweepClient } from './adapters/end-dates-sweep.client';
import { SyncTargetsClient } from './adapters/sync-targets.client';
import { CONFIG, type SyncSchedulerConfig } from './config/sync-scheduler.config';
import { HealthController } from './controllers/health.controller';
import { LeaderLeaseRepository } from './repositories/leader-lease.repository';
import { SyncScheduleRepository } from './repositories/sync-schedule.repository';
import { EndDateSweepService } from './services/end-date-sweep.service';
import { SyncScheduleService } from './services/sync-schedule.service';

@Module({})
export class AppModule {
  static register(config: SyncSchedulerConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AppModule,
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: SERVICE_RUNTIME, useValue: runtime },
        ...messagingProviders(runtime),
        {
          provide: SyncTargetsClient,
          useFactory: async () => {
            const client = new NamespacedNatsClient(
              natsConnectionOptions(config, 'sync-scheduler', 'sync-scheduler-requests-out'),
              config.NATS_NAMESPACE,
            );
            await client.connect();
            return new SyncTargetsClient(client);
          },
        },
        {
          provide: EndDatesSweepClient,
          useFactory: async () => {
            const client = new NamespacedNatsClient(
              natsConnectionOptions(config, 'sync-scheduler', 'sync-scheduler-end-dates-out'),
              config.NATS_NAMESPACE,
            );
            await client.connect();
            return new EndDatesSweepClient(client);
          },
        },
        LeaderLeaseRepository,
        SyncScheduleRepository,
        SyncScheduleService,
        EndDateSweepService,
        RuntimeLifecycle,
      ],
    };
  }
}
