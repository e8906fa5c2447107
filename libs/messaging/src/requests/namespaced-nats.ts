import { ClientNats, ServerNats, type MsPattern, type NatsOptions } from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';

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

/**
 * Nest's NATS server with every `@MessagePattern` subscribed under the namespace. Handlers stay
 * keyed by their bare pattern, so controllers keep declaring `marketplace.orders.create`.
 */
export class NamespacedNatsServer extends ServerNats {
  private readonly namespacedSubscriptions: Subscription[] = [];

  constructor(
    private readonly natsOptions: NestNatsOptions,
    private readonly namespace: string,
  ) {
    super(natsOptions);
  }

  override bindEvents(client: NatsConnection): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.natsOptions.queue;
      const onMessage = this.getMessageHandler(pattern) as (error: Error | null, message: Msg) => void;
      this.namespacedSubscriptions.push(
        client.subscribe(requestSubject(this.namespace, pattern), { queue, callback: onMessage }),
      );
    }
  }

  override async close(): Promise<void> {
    for (const subscription of this.namespacedSubscriptions.splice(0)) subscription.unsubscribe();
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
