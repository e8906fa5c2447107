import { Module, type DynamicModule } from '@nestjs/common';
import { RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from './config/vsphere-adapter.config';
import { HealthController } from './controllers/health.controller';
import { orderSubmittedConsumer } from './controllers/order-submitted.consumer';
import { OrderProvisioningService } from './services/order-provisioning.service';

@Module({})
export class AppModule {
  static register(config: VsphereAdapterConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AppModule,
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: SERVICE_RUNTIME, useValue: runtime },
        OrderProvisioningService,
        orderSubmittedConsumer,
        RuntimeLifecycle,
      ],
    };
  }
}
