import { configuredStream, type ServiceDefinition } from '@app/messaging';
import { AppModule } from './app.module';
import {
  loadOrderServiceConfig,
  MARKETPLACE_SCHEMA,
  type OrderServiceConfig,
} from './config/order-service.config';
import { IDENTITY_ENTITIES } from './identity/identity.module';
import { MARKETPLACE_ENTITIES } from './marketplace/marketplace.module';
import { MARKETPLACE_MIGRATIONS } from './migrations';

export const orderServiceDefinition: ServiceDefinition<OrderServiceConfig> = {
  app: 'order-service',
  schema: MARKETPLACE_SCHEMA,
  loadConfig: () => loadOrderServiceConfig(),
  entities: [...MARKETPLACE_ENTITIES, ...IDENTITY_ENTITIES],
  migrations: MARKETPLACE_MIGRATIONS,
  ownedStreams: (topology, config) => [configuredStream(topology.streams.marketplace, config)],
  consumedStreams: (topology, config) => [configuredStream(topology.streams.vsphere, config)],
  module: (config, runtime) => AppModule.register(config, runtime),
};
