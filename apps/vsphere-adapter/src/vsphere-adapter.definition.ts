import { configuredStream, type ServiceDefinition } from '@app/messaging';
import { AppModule } from './app.module';
import {
  loadVsphereAdapterConfig,
  VSPHERE_SCHEMA,
  type VsphereAdapterConfig,
} from './config/vsphere-adapter.config';
import { VSPHERE_ENTITIES } from './entities';
import { VSPHERE_MIGRATIONS } from './migrations';

export const vsphereAdapterDefinition: ServiceDefinition<VsphereAdapterConfig> = {
  app: 'vsphere-adapter',
  schema: VSPHERE_SCHEMA,
  loadConfig: () => loadVsphereAdapterConfig(),
  entities: VSPHERE_ENTITIES,
  migrations: VSPHERE_MIGRATIONS,
  ownedStreams: (topology, config) => [configuredStream(topology.streams.vsphere, config)],
  consumedStreams: (topology, config) => [
    configuredStream(topology.streams.marketplace, config),
    // Owned by the sync-scheduler; created here if the adapter starts first.
    configuredStream(topology.streams.scheduler, config),
  ],
  module: (config, runtime) => AppModule.register(config, runtime),
};
