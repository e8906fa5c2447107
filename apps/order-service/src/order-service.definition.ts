import { configuredStream, type ServiceDefinition } from '@app/messaging';
import { AppModule } from './app.module';
import {
  loadOrderServiceConfig,
  MARKETPLACE_SCHEMA,
  type OrderServiceConfig,
} from './config/order-service.config';
import { ApiTokenEntity } from './entities/api-token.entity';
import { CustomerPermissionEntity } from './entities/customer-permission.entity';
import { CustomerEntity } from './entities/customer.entity';
import { LoginAttemptEntity } from './entities/login-attempt.entity';
import { OfferingEntity } from './entities/offering.entity';
import { OrderEntity } from './entities/order.entity';
import { ProjectPermissionEntity } from './entities/project-permission.entity';
import { ProjectEntity } from './entities/project.entity';
import { ResourceEntity } from './entities/resource.entity';
import { UserEntity } from './entities/user.entity';
import { PlanPriceEntity } from './marketplace/entities/plan-price.entity';
import { PlanEntity } from './marketplace/entities/plan.entity';
import { MARKETPLACE_MIGRATIONS } from './migrations';

export const orderServiceDefinition: ServiceDefinition<OrderServiceConfig> = {
  app: 'order-service',
  schema: MARKETPLACE_SCHEMA,
  loadConfig: () => loadOrderServiceConfig(),
  entities: [
    OfferingEntity,
    OrderEntity,
    ResourceEntity,
    UserEntity,
    ApiTokenEntity,
    CustomerEntity,
    ProjectEntity,
    CustomerPermissionEntity,
    ProjectPermissionEntity,
    PlanEntity,
    PlanPriceEntity,
    LoginAttemptEntity,
  ],
  migrations: MARKETPLACE_MIGRATIONS,
  ownedStreams: (topology, config) => [configuredStream(topology.streams.marketplace, config)],
  consumedStreams: (topology, config) => [configuredStream(topology.streams.vsphere, config)],
  module: (config, runtime) => AppModule.register(config, runtime),
};
