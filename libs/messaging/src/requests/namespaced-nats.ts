import { ClientNats, ServerNats, type MsPattern, type NatsOptions } from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { MessagingMetrics } from '../metrics/messaging-metrics';

type NestNatsOptions = Required<NatsOptions>['options'];

/**
 * The subject a request pattern travels on: `<namespace>.requests.<pattern>`. Like the event
 * subjects, it keeps two deployments (or two test suites) on one NATS server from answering each
 * other's requests: with bare patterns, any order service on the server could take a request. The
 * `requests` token keeps them out of the event streams (`<namespace>.marketplace.>` would
 * otherwise store a request and answer it with a publish ack).
 */
export function requestSubject(namespace: string, pattern: string): string {
  return `${namespace}.requests.${pattern}`;
}

export interface NamespacedNatsServerOptions {
  /** How long `close()` waits for the requests in hand to be answered. */
  shutdownGraceMs?: number;
  metrics?: MessagingMetrics;
}

interface ReplyPacket {
  response?: { status?: unknown; code?: number };
  err?: unknown;
}

/**
 * Nest's NATS server with every `@MessagePattern` subscribed under the namespace. Handlers stay
 * keyed by their bare pattern, so controllers keep declaring `marketplace.orders.create`.
 *
 * It drains on close: it stops taking requests (the queue group's other members, if any, take the
 * next ones), waits for those in hand to be answered, flushes the replies, then closes — so a
 * rolling restart answers every request it accepted. Nest's own graceful option only sleeps.
 */
export class NamespacedNatsServer extends ServerNats {
  private readonly namespacedSubscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly started = new WeakMap<Msg, { pattern: string; at: bigint }>();
  private connection?: NatsConnection;

  constructor(
    private readonly natsOptions: NestNatsOptions,
    private readonly namespace: string,
    private readonly serverOptions: NamespacedNatsServerOptions = {},
  ) {
    super(natsOptions);
  }

  override bindEvents(client: NatsConnection): void {
    this.connection = client;
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.natsOptions.queue;
      const onMessage = this.getMessageHandler(pattern) as (
        error: Error | null,
        message: Msg,
      ) => Promise<unknown>;
      this.namespacedSubscriptions.push(
        client.subscribe(requestSubject(this.namespace, pattern), {
          queue,
          callback: (error, message) => {
            this.started.set(message, { pattern, at: process.hrtime.bigint() });
            const task = onMessage(error, message).finally(() => this.inFlight.delete(task));
            this.inFlight.add(task);
          },
        }),
      );
    }
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: unknown): (response: unknown) => unknown {
    const publish = super.getPublisher(natsMsg, id, ctx as never) as (response: unknown) => unknown;
    const metrics = this.serverOptions.metrics;
    if (!metrics) return publish;
    return (packet: unknown) => {
      const start = this.started.get(natsMsg);
      if (start) {
        const reply = packet as ReplyPacket;
        const status =
          reply.err !== undefined
            ? 'error'
            : reply.response?.status === 'error'
              ? String(reply.response.code ?? 'error')
              : 'ok';
        metrics.requests.inc({ pattern: start.pattern, status });
        metrics.requestSeconds.observe(
          { pattern: start.pattern },
          Number(process.hrtime.bigint() - start.at) / 1e9,
        );
        this.started.delete(natsMsg);
      }
      return publish(packet);
    };
  }

  override async close(): Promise<void> {
    for (const subscription of this.namespacedSubscriptions.splice(0)) subscription.unsubscribe();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.serverOptions.shutdownGraceMs ?? 10_000);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    await this.connection?.flush().catch(() => undefined);
    await super.close();
  }
}

/** Nest's NATS client sending every pattern under the namespace (see `requestSubject`). */
export class NamespacedNatsClient extends ClientNats {
  constructor(
    options: NestNatsOptions,
    private readonly namespace: string,
  ) {
    super(options);
  }

  protected override normalizePattern(pattern: MsPattern): string {
    return requestSubject(this.namespace, super.normalizePattern(pattern));
  }
}
