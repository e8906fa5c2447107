import { Module, type DynamicModule } from '@nestjs/common';
import { SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { CONFIG } from './config/config.token';
import type { OrderServiceConfig } from './config/order-service.config';
import { HealthController } from './controllers/health.controller';
import { OrderOutcomesConsumer } from './controllers/order-outcomes.consumer';
import { OrdersController } from './controllers/orders.controller';
import { dataSourceProvider } from './repositories/data-source.provider';
import { OfferingRepository } from './repositories/offering.repository';
import { OrderRepository } from './repositories/order.repository';
import { OfferingService } from './services/offering.service';
import { OrderOutcomeService } from './services/order-outcome.service';
import { OrderSubmissionService } from './services/order-submission.service';

@Module({})
export class AppModule {
  static register(config: OrderServiceConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AppModule,
      controllers: [OrdersController, HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: SERVICE_RUNTIME, useValue: runtime },
        dataSourceProvider(runtime),
        OfferingRepository,
        OrderRepository,
        OfferingService,
        OrderSubmissionService,
        OrderOutcomeService,
        OrderOutcomesConsumer,
      ],
    };
  }
}
