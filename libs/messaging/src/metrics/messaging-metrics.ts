import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface MessagingProbes {
  /** Unpublished (and not parked) outbox rows, and the age in seconds of the oldest of them. */
  outboxBacklog(): Promise<{ count: number; oldestAgeSeconds: number; parked: number }>;
  natsUp(): boolean;
  postgresUp(): Promise<boolean>;
}

/**
 * The series of a service's messaging: request counts and latencies per NATS pattern, outbox backlog
 * and age, consumer outcomes and redeliveries, NATS and Postgres connection state. The gauges are
 * read at scrape time, so a scrape always sees the present.
 */
export class MessagingMetrics {
  readonly requests: Counter<'pattern' | 'status'>;
  readonly requestSeconds: Histogram<'pattern'>;
  readonly consumerMessages: Counter<'durable' | 'outcome'>;
  readonly consumerRedeliveries: Counter<'durable'>;
  readonly outboxPublished: Counter;
  readonly outboxParked: Counter;

  constructor(
    /** The app's registry: where an app adds metrics of its own. */
    readonly registry: Registry,
    probes?: MessagingProbes,
  ) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'nats_requests_total',
      help: 'NATS requests answered, by pattern and reply status (ok, a refusal code, 503, error)',
      labelNames: ['pattern', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'nats_request_duration_seconds',
      help: 'Time from a NATS request to its reply, by pattern',
      labelNames: ['pattern'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.consumerMessages = new Counter({
      name: 'jetstream_consumer_messages_total',
      help: 'Messages settled by a durable consumer, by outcome: done (ack), retry (nak), poison (term)',
      labelNames: ['durable', 'outcome'],
      registers,
    });
    this.consumerRedeliveries = new Counter({
      name: 'jetstream_consumer_redeliveries_total',
      help: 'Messages that arrived for the second time or more',
      labelNames: ['durable'],
      registers,
    });
    this.outboxPublished = new Counter({
      name: 'outbox_published_total',
      help: 'Outbox events published to JetStream',
      registers,
    });
    this.outboxParked = new Counter({
      name: 'outbox_parked_total',
      help: 'Outbox events parked as unpublishable since start',
      registers,
    });
    if (!probes) return;
    let backlog: Promise<{ count: number; oldestAgeSeconds: number; parked: number }> | undefined;
    // One query serves the three outbox gauges of a scrape.
    const readBacklog = () =>
      (backlog ??= probes
        .outboxBacklog()
        .catch(() => ({ count: Number.NaN, oldestAgeSeconds: Number.NaN, parked: Number.NaN }))
        .finally(() => setTimeout(() => (backlog = undefined), 0)));
    new Gauge({
      name: 'outbox_backlog',
      help: 'Outbox events not yet published (NaN while Postgres is away)',
      registers,
      async collect() {
        this.set((await readBacklog()).count);
      },
    });
    new Gauge({
      name: 'outbox_oldest_unpublished_age_seconds',
      help: 'Age of the oldest outbox event not yet published; 0 when none waits',
      registers,
      async collect() {
        this.set((await readBacklog()).oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'outbox_parked',
      help: 'Outbox events parked as unpublishable, waiting for an operator',
      registers,
      async collect() {
        this.set((await readBacklog()).parked);
      },
    });
    new Gauge({
      name: 'nats_connected',
      help: '1 while the JetStream connection to NATS is up',
      registers,
      collect() {
        this.set(probes.natsUp() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'postgres_up',
      help: '1 while the service reaches its Postgres',
      registers,
      async collect() {
        this.set((await probes.postgresUp()) ? 1 : 0);
      },
    });
  }
}
