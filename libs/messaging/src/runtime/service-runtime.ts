import type { HealthReport } from '@app/contracts';
import { topology as buildTopology, type Topology } from '@app/contracts';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { ConnectionOptions, NatsConnection } from '@nats-io/transport-node';
import type { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Logger } from '@app/platform/logging/json-logger';
import { isPostgresUp } from '@app/platform/persistence/data-source';
import { connectNats, isNatsUp } from '../nats/nats-connection';
import { watchReconnects } from '../nats/reconnects';
import { ensureStream, type StreamSpec } from '../jetstream/ensure-topology';
import { untilJetStreamAnswers } from '../jetstream/until-jetstream-answers';
import { MessagingMetrics } from '../metrics/messaging-metrics';
import { OutboxRepository } from '../outbox/repositories/outbox.repository';
import { InboxRepository } from '../inbox/repositories/inbox.repository';
import { UnitOfWork } from '../repositories/unit-of-work';
import { OutboxRelay } from '../outbox/outbox-relay';
import { Housekeeping } from './housekeeping';

export interface ServiceRuntimeOptions {
  app: string;
  logger: Logger;
  dataSource: DataSource;
  /** The service's own Postgres schema, which holds its outbox and inbox. */
  schema: string;
  /** From `natsConnectionOptions`: servers, credentials, the app's inbox prefix, reconnection. */
  nats: ConnectionOptions;
  namespace: string;
  outboxSweepMs: number;
  /** False: the relay never runs in this process (events wait in the outbox for one that does). */
  relayEnabled?: boolean;
  /** How long the streams keep events: past it, inbox ids and published outbox rows are pruned. */
  eventHistoryMs: number;
  /** The streams this service publishes to; it creates them, idempotently, at start. */
  ownedStreams: (topology: Topology) => StreamSpec[];
  /** The streams it consumes from: created if missing, so start order does not matter. */
  consumedStreams: (topology: Topology) => StreamSpec[];
  registry: Registry;
}

/**
 * Everything a service needs for reliable messaging, opened once at start: its NATS connection,
 * JetStream handles, its streams, its outbox (with relay), its inbox and its metrics.
 */
export class ServiceRuntime {
  private constructor(
    readonly app: string,
    readonly logger: Logger,
    readonly dataSource: DataSource,
    readonly nats: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly topology: Topology,
    readonly outbox: OutboxRepository,
    readonly inbox: InboxRepository,
    readonly relay: OutboxRelay,
    readonly housekeeping: Housekeeping,
    readonly metrics: MessagingMetrics,
  ) {}

  static async open(options: ServiceRuntimeOptions): Promise<ServiceRuntime> {
    const topology = buildTopology(options.namespace);
    const nats = await connectNats(options.nats);
    const js = jetstream(nats);
    // jetstreamManager asks for the account's JetStream info: it waits for a leader as the streams do.
    const jsm = await untilJetStreamAnswers(
      async () => {
        const manager = await jetstreamManager(nats);
        for (const stream of options.ownedStreams(topology)) await ensureStream(manager, stream, 'own');
        for (const stream of options.consumedStreams(topology))
          await ensureStream(manager, stream, 'createOnly');
        return manager;
      },
      (reason, delayMs) =>
        options.logger.warn({ reason, delayMs }, 'waiting for JetStream to set up the streams'),
    );
    const outbox = new OutboxRepository(options.dataSource, options.schema);
    const inbox = new InboxRepository(options.dataSource, options.schema);
    const metrics = new MessagingMetrics(options.registry, {
      outboxBacklog: () => outbox.backlog(),
      natsUp: () => isNatsUp(nats),
      postgresUp: () => isPostgresUp(options.dataSource),
    });
    const relay = new OutboxRelay({
      unitOfWork: new UnitOfWork(options.dataSource),
      outbox,
      js,
      logger: options.logger,
      sweepMs: options.outboxSweepMs,
      enabled: options.relayEnabled ?? true,
      natsUp: () => isNatsUp(nats),
      metrics,
    });
    // What waited in the outbox during an outage goes at the return, not at the next sweep.
    watchReconnects(nats, () => relay.wake());
    const housekeeping = new Housekeeping({
      outbox,
      inbox,
      logger: options.logger,
      horizonMs: options.eventHistoryMs,
    });
    return new ServiceRuntime(
      options.app,
      options.logger,
      options.dataSource,
      nats,
      js,
      jsm,
      topology,
      outbox,
      inbox,
      relay,
      housekeeping,
      metrics,
    );
  }

  start(): void {
    if (!this.relay.enabled)
      this.logger.warn('outbox relay disabled (OUTBOX_RELAY_ENABLED=false): events stay in the outbox');
    this.relay.start();
    this.housekeeping.start();
  }

  async health(): Promise<HealthReport> {
    const postgres = (await isPostgresUp(this.dataSource)) ? 'up' : 'down';
    const nats = isNatsUp(this.nats) ? 'up' : 'down';
    return { app: this.app, status: postgres === 'up' && nats === 'up' ? 'ok' : 'degraded', postgres, nats };
  }

  /** Stops the relay after its current pass, then closes NATS (flushing acks and publishes) and Postgres. */
  async close(): Promise<void> {
    this.housekeeping.stop();
    await this.relay.stop();
    await this.nats.drain().catch(() => undefined);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** The runtime itself: for bootstrap and lifecycle only; services inject `messagingProviders`' parts. */
export const SERVICE_RUNTIME = Symbol('ServiceRuntime');

/** The service's logger (pino), for services that log. */
export const LOGGER = Symbol('Logger');

/** The service's health (Postgres and NATS), as its health handler answers it. */
export const SERVICE_HEALTH = Symbol('ServiceHealth');
export type ServiceHealth = () => Promise<HealthReport>;
