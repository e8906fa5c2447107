import { Module, type DynamicModule } from '@nestjs/common';
import { RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { SyncTargetsClient } from './adapters/sync-targets.client';
import { CONFIG, type SyncSchedulerConfig } from './config/sync-scheduler.config';
import { HealthController } from './controllers/health.controller';
import { dataSourceProvider } from '@app/messaging/repositories/data-source.provider';
import { SyncScheduleRepository } from './repositories/sync-schedule.repository';
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
        dataSourceProvider(runtime),
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
        SyncScheduleRepository,
        SyncScheduleService,
        RuntimeLifecycle,
      ],
    };
  }
}
