import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { Topology } from '@app/contracts';
import type { MetricsConfig, ServiceBaseConfig } from '@app/platform/config/base-config';
import { initializeWhenReachable } from '@app/platform/persistence/initialize-when-reachable';
import { readConfigOrExit } from '@app/platform/config/read-config-or-exit';
import { createLogger, NestJsonLogger, type Logger } from '@app/platform/logging/json-logger';
import {
  createServiceDataSource,
  migrate,
  type ServiceDataSourceOptions,
} from '@app/platform/persistence/data-source';
import { createMetricsRegistry, startMetricsServer } from '@app/platform/metrics';
import { installProcessGuards } from '@app/platform/runtime/process-guards';
import { installShutdownDeadline } from '@app/platform/runtime/shutdown-deadline';
import type { StreamSpec } from '../jetstream/ensure-topology';
import { DependencyFailureFilter } from '../requests/dependency-failure.filter';
import { ServiceRuntime } from './service-runtime';
import { NamespacedNatsServer } from '../requests/namespaced-nats';
import { natsConnectionOptions } from '../nats/nats-options';
import { waitForNats } from '../nats/wait-for-nats';

/** The variables every event-driven service reads (the base schema each one extends). */
export type ServiceConfig = ServiceBaseConfig & MetricsConfig;

export interface ServiceDefinition<C extends ServiceConfig> {
  app: string;
  schema: string;
  loadConfig: () => C;
  entities: ServiceDataSourceOptions['entities'];
  migrations: ServiceDataSourceOptions['migrations'];
  /** The streams the service publishes to, with their history. */
  ownedStreams: (topology: Topology, config: C) => StreamSpec[];
  /** The streams it consumes from. */
  consumedStreams: (topology: Topology, config: C) => StreamSpec[];
  module: (config: C, runtime: ServiceRuntime) => DynamicModule;
}

/** A stream of the topology with the history and the replicas the service's configuration asks for. */
export function configuredStream(
  stream: Pick<StreamSpec, 'name' | 'subjects'>,
  config: Pick<ServiceConfig, 'EVENT_HISTORY_MS' | 'NATS_STREAM_REPLICAS'>,
): StreamSpec {
  return { ...stream, maxAgeMs: config.EVENT_HISTORY_MS, replicas: config.NATS_STREAM_REPLICAS };
}

function dataSourceFor<C extends ServiceConfig>(definition: ServiceDefinition<C>, config: C) {
  return createServiceDataSource({
    url: config.DATABASE_URL,
    schema: definition.schema,
    entities: definition.entities,
    migrations: definition.migrations,
    applicationName: definition.app,
  });
}

/** `npm run migrate`: applies the service's pending migrations and exits. */
export async function migrateService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
): Promise<void> {
  const config = readConfigOrExit(definition.app, definition.loadConfig);
  const logger = createLogger(definition.app, config.LOG_LEVEL);
  const dataSource = dataSourceFor(definition, config);
  await dataSource.initialize();
  try {
    const applied = await migrate(dataSource, definition.schema);
    logger.info({ applied, schema: definition.schema }, `${applied.length} migration(s) applied`);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Starts a service: validated config, migrations, its messaging runtime, then the Nest app that
 * answers requests over core NATS. Any start-up failure is logged as one JSON line and exits 1.
 */
export async function bootstrapService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
): Promise<void> {
  const config = readConfigOrExit(definition.app, definition.loadConfig);
  const logger: Logger = createLogger(definition.app, config.LOG_LEVEL);
  installProcessGuards(logger);
  try {
    const dataSource = dataSourceFor(definition, config);
    await initializeWhenReachable(dataSource, logger);
    const applied = await migrate(dataSource, definition.schema);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    const registry = createMetricsRegistry(definition.app);
    await waitForNats(natsConnectionOptions(config, definition.app), logger);
    const runtime = await ServiceRuntime.open({
      app: definition.app,
      logger,
      dataSource,
      schema: definition.schema,
      nats: natsConnectionOptions(config, definition.app),
      namespace: config.NATS_NAMESPACE,
      outboxSweepMs: config.OUTBOX_SWEEP_MS,
      relayEnabled: config.OUTBOX_RELAY_ENABLED,
      eventHistoryMs: config.EVENT_HISTORY_MS,
      ownedStreams: (topology) => definition.ownedStreams(topology, config),
      consumedStreams: (topology) => definition.consumedStreams(topology, config),
      registry,
    });
    const app = await NestFactory.createMicroservice<MicroserviceOptions>(
      definition.module(config, runtime),
      {
        strategy: new NamespacedNatsServer(
          {
            ...natsConnectionOptions(config, definition.app, `${definition.app}-requests`),
            queue: definition.app,
          },
          config.NATS_NAMESPACE,
          { shutdownGraceMs: config.SHUTDOWN_GRACE_MS, metrics: runtime.metrics },
        ),
        logger: new NestJsonLogger(logger),
      },
    );
    app.useGlobalFilters(new DependencyFailureFilter(definition.app, logger));
    app.enableShutdownHooks();
    installShutdownDeadline(logger, config.SHUTDOWN_GRACE_MS);
    await app.listen();
    const metrics = await startMetricsServer(registry, config.METRICS_HOST, config.METRICS_PORT);
    logger.info({ namespace: config.NATS_NAMESPACE, metrics: metrics.url }, `${definition.app} started`);
  } catch (error) {
    logger.fatal({ err: error }, `${definition.app} failed to start`);
    process.exit(1);
  }
}
