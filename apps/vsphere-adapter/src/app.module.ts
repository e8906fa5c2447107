import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { runtimeProviders } from './adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from './config/vsphere-adapter.config';
import { HealthController } from './controllers/health.controller';
import { IntegrationModule } from './integration/integration.module';
import { InventoryModule } from './inventory/inventory.module';
import { MachinesModule } from './machines/machines.module';
import { dataSourceProvider } from './repositories/data-source.provider';
import { UnitOfWork } from './repositories/unit-of-work';
import { RequestGuard } from './services/request-guard.service';
import { INVENTORY_METER, type InventoryMeter } from './vcenter/adapters/inventory-meter';

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
      dataSourceProvider(runtime),
      ...runtimeProviders(runtime),
      UnitOfWork,
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
