import { configuredStream, type ServiceDefinition } from '@app/messaging';
import { AppModule } from './app.module';
import {
  loadSyncSchedulerConfig,
  SCHEDULER_SCHEMA,
  type SyncSchedulerConfig,
} from './config/sync-scheduler.config';
import { SCHEDULER_MIGRATIONS } from './migrations';

export const syncSchedulerDefinition: ServiceDefinition<SyncSchedulerConfig> = {
  app: 'sync-scheduler',
  schema: SCHEDULER_SCHEMA,
  loadConfig: () => loadSyncSchedulerConfig(),
  entities: [],
  migrations: SCHEDULER_MIGRATIONS,
  ownedStreams: (topology, config) => [configuredStream(topology.streams.scheduler, config)],
  consumedStreams: () => [],
  module: (config, runtime) => AppModule.register(config, runtime),
};
