import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  DependencyFailureFilter,
  NamespacedNatsServer,
  natsConnectionOptions,
  ServiceRuntime,
} from '@app/messaging';
import { NestJsonLogger } from '@app/platform';
import { createMetricsRegistry } from '@app/platform/metrics';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { AppModule, type AdapterExtras } from '../../src/app.module';
import { loadVsphereAdapterConfig, VSPHERE_SCHEMA } from '../../src/config/vsphere-adapter.config';
import { VSPHERE_ENTITIES } from '../../src/entities';
import { vsphereAdapterDefinition } from '../../src/vsphere-adapter.definition';
import { captureLogger } from '../../../../test/support/capture-logger';
import { TEST_VCENTER_NETWORKS } from '../../../../test/support/app-process';
import { answerCallers } from './callers';
import { testEnv } from '../../../../test/support/test-env';

/** The request server, noting when its subscriptions have reached the NATS server. */
class FlushedNatsServer extends NamespacedNatsServer {
  subscribed: Promise<void> = Promise.resolve();

  override bindEvents(client: NatsConnection): void {
    super.bindEvents(client);
    this.subscribed = client.flush();
  }
}

/** A key for `CREDENTIALS_KEYS`, fresh per suite. */
export const credentialKey = (id = 'k1'): string => `${id}:${randomBytes(32).toString('base64')}`;

/** One vSphere adapter, in this process, as `npm start` runs it (its log lines kept for scanning). */
export interface AdapterInstance {
  readonly app: INestMicroservice;
  readonly runtime: ServiceRuntime;
  /** Every JSON log line the adapter wrote (its own and Nest's). */
  readonly lines: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Starts the adapter against a suite's database (already migrated from the template) and NATS
 * namespace, with `env` on top of the defaults: the same module, runtime, request server and
 * consumers as `main.ts`, without the metrics server.
 */
export async function startAdapter(options: {
  databaseUrl: string;
  namespace: string;
  env?: Record<string, string>;
  extras?: AdapterExtras;
}): Promise<AdapterInstance> {
  const config = loadVsphereAdapterConfig({
    DATABASE_URL: options.databaseUrl,
    NATS_URL: testEnv.natsUrl,
    NATS_NAMESPACE: options.namespace,
    OUTBOX_SWEEP_MS: '500',
    VSPHERE_SYNC_SWEEP_MS: '500',
    SHUTDOWN_GRACE_MS: '3000',
    // vcsim and its front listen on loopback, which the adapter refuses unless told.
    VCENTER_ALLOWED_NETWORKS: TEST_VCENTER_NETWORKS,
    ...options.env,
  });
  const { logger, lines } = captureLogger('vsphere-adapter');
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: VSPHERE_SCHEMA,
    entities: VSPHERE_ENTITIES,
    migrations: [],
    applicationName: 'vsphere-adapter-test',
  });
  await dataSource.initialize();
  const runtime = await ServiceRuntime.open({
    app: 'vsphere-adapter',
    logger,
    dataSource,
    schema: VSPHERE_SCHEMA,
    nats: natsConnectionOptions(config, 'vsphere-adapter'),
    namespace: config.NATS_NAMESPACE,
    outboxSweepMs: config.OUTBOX_SWEEP_MS,
    eventHistoryMs: config.EVENT_HISTORY_MS,
    ownedStreams: (topology) => vsphereAdapterDefinition.ownedStreams(topology, config),
    consumedStreams: (topology) => vsphereAdapterDefinition.consumedStreams(topology, config),
    registry: createMetricsRegistry('vsphere-adapter'),
  });
  const server = new FlushedNatsServer(
    {
      ...natsConnectionOptions(config, 'vsphere-adapter', 'vsphere-adapter-requests'),
      queue: 'vsphere-adapter',
    },
    config.NATS_NAMESPACE,
    { shutdownGraceMs: config.SHUTDOWN_GRACE_MS },
  );
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(
    AppModule.register(config, runtime, options.extras),
    { strategy: server, logger: new NestJsonLogger(logger) },
  );
  app.useGlobalFilters(new DependencyFailureFilter('vsphere-adapter', logger));
  await app.listen();
  // Requests sent right after the start must find the subscriptions in place.
  await server.subscribed;
  // The order service's part: who each test token is.
  const callers = await answerCallers(config.NATS_NAMESPACE);
  return {
    app,
    runtime,
    lines,
    close: async () => {
      await app.close();
      await callers.close();
    },
  };
}
