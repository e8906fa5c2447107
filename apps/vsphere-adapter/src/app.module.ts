import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import {
  messagingProviders,
  natsConnectionOptions,
  RuntimeLifecycle,
  SERVICE_RUNTIME,
  type ServiceRuntime,
} from '@app/messaging';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { CallerContextClient } from './adapters/caller-context.client';
import { QuotaReservationClient } from './adapters/quota-reservation.client';
import { runtimeProviders } from './adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from './config/vsphere-adapter.config';
import { HealthController } from './controllers/health.controller';
import { CALLER_CONTEXT_PORT } from './ports/caller-context.port';
import { QUOTA_RESERVATION_PORT } from './ports/quota-reservation.port';
import { IntegrationModule } from './integration/integration.module';
import { InventoryModule } from './inventory/inventory.module';
import { MachinesModule } from './machines/machines.module';
import { RequestGuard } from './services/request-guard.service';
import { INVENTORY_METER, type InventoryMeter } from './vcenter/adapters/inventory-meter';

/** The adapter's NATS connection to the order service. */
const ORDER_SERVICE_NATS = Symbol('OrderServiceNats');

/** What tools and the bench may add to a normal start. */
export interface AdapterExtras {
  /** Counts every vCenter request of the synchronisations (the sync bench). */
  inventoryMeter?: InventoryMeter;
}

/** The runtime, the configuration and the few shared collaborators, for every module of the adapter. */
@Module({})
class CoreModule {
  static register(
    config: VsphereAdapterConfig,
    runtime: ServiceRuntime,
    extras: AdapterExtras,
  ): DynamicModule {
    const providers: Provider[] = [
      { provide: CONFIG, useValue: config },
      { provide: SERVICE_RUNTIME, useValue: runtime },
      ...messagingProviders(runtime),
      ...runtimeProviders(runtime),
      {
        // One connection to the order service for every request the adapter asks it, closed at
        // shutdown by the caller-context client.
        provide: ORDER_SERVICE_NATS,
        useFactory: async () => {
          const client = new NamespacedNatsClient(
            natsConnectionOptions(config, 'vsphere-adapter', 'vsphere-adapter-to-order-service'),
            config.NATS_NAMESPACE,
          );
          await client.connect();
          return client;
        },
      },
      {
        // Every request's token is resolved by the order service.
        provide: CALLER_CONTEXT_PORT,
        inject: [ORDER_SERVICE_NATS],
        useFactory: (client: NamespacedNatsClient) => new CallerContextClient(client),
      },
      {
        provide: QUOTA_RESERVATION_PORT,
        inject: [ORDER_SERVICE_NATS],
        useFactory: (client: NamespacedNatsClient) => new QuotaReservationClient(client),
      },
      RequestGuard,
      ...(extras.inventoryMeter ? [{ provide: INVENTORY_METER, useValue: extras.inventoryMeter }] : []),
    ];
    return {
      module: CoreModule,
      global: true,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}

@Module({})
export class AppModule {
  static register(
    config: VsphereAdapterConfig,
    runtime: ServiceRuntime,
    extras: AdapterExtras = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(config, runtime, extras),
        InventoryModule,
        IntegrationModule,
        MachinesModule,
      ],
      controllers: [HealthController],
      providers: [RuntimeLifecycle],
    };
  }
}
