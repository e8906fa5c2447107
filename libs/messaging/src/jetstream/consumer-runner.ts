import type { Envelope, EventContract } from '@app/contracts';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { Logger } from '@app/platform/logging/json-logger';
import { withOrderContext } from '@app/platform/logging/json-logger';
import { outcomeOfFailure, type ConsumerPolicy } from './consumer-policy';
import { decodeEvent } from './decode-event';
import type { HandlerOutcome } from './handler-outcome';
import type { DurableSpec } from './ensure-topology';

export interface DeliveryContext {
  deliveryCount: number;
  /** Tells the server the work goes on; the runner also does this by itself while a handler runs. */
  working(): void;
}

export type EventHandler<T> = (envelope: Envelope<T>, delivery: DeliveryContext) => Promise<HandlerOutcome>;

/** One event type a consumer accepts and the handler it goes to. */
export interface EventRoute<T> {
  contract: EventContract<T>;
  handler: EventHandler<T>;
}

/** Keeps each route's payload type tied to its handler while the runner holds routes of several types. */
export function route<T>(contract: EventContract<T>, handler: EventHandler<T>): EventRoute<unknown> {
  return { contract, handler } as EventRoute<unknown>;
}

export interface ConsumerRunnerOptions {
  js: JetStreamClient;
  durable: DurableSpec;
  routes: EventRoute<unknown>[];
  policy: ConsumerPolicy;
  logger: Logger;
}

/**
 * Pulls from a durable consumer and maps every handler outcome to ack, nak with delay or term.
 * A malformed message (not JSON, or failing its schema) is terminated with a logged reason and the
 * loop goes on. Up to `policy.concurrency` messages are handled at once.
 */
export class ConsumerRunner {
  private messages?: ConsumerMessages;
  private readonly inFlight = new Set<Promise<void>>();
  private loop?: Promise<void>;
  private stopping = false;

  constructor(private readonly options: ConsumerRunnerOptions) {}

  async start(): Promise<void> {
    const { js, durable, policy } = this.options;
    const consumer = await js.consumers.get(durable.stream, durable.durable);
    this.messages = await consumer.consume({ max_messages: policy.concurrency });
    this.loop = this.run(this.messages);
  }

  /** Stops pulling and waits for the messages in hand; unfinished ones are redelivered to another instance. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.messages?.close();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    for await (const message of messages) {
      if (this.stopping) {
        message.nak();
        continue;
      }
      const task = this.handle(message).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
      // Hold the loop while the window is full, so `max_messages` bounds what this process holds.
      if (this.inFlight.size >= this.options.policy.concurrency) await Promise.race(this.inFlight);
    }
  }

  private async handle(message: JsMsg): Promise<void> {
    const { routes, logger, durable } = this.options;
    const where = { subject: message.subject, seq: message.seq, durable: durable.durable };
    const decoded = decodeEvent(
      message.data,
      routes.map((candidate) => candidate.contract),
    );
    if (!decoded.ok) {
      logger.warn({ ...where, reason: decoded.reason }, 'terminated a malformed message');
      terminate(message);
      return;
    }
    const { envelope, contract } = decoded;
    const handler = routes.find((candidate) => candidate.contract === contract)!.handler;
    await withOrderContext(envelope.correlationId, async () => {
      const outcome = await this.runHandler(message, envelope, handler);
      this.reply(message, outcome, { ...where, type: envelope.type, eventId: envelope.id });
    });
  }

  private async runHandler(
    message: JsMsg,
    envelope: Envelope<unknown>,
    handler: EventHandler<unknown>,
  ): Promise<HandlerOutcome> {
    const { policy, logger } = this.options;
    const heartbeat = setInterval(() => message.working(), Math.max(policy.ackWaitMs / 3, 200));
    try {
      return await handler(envelope, {
        deliveryCount: message.info.deliveryCount,
        working: () => message.working(),
      });
    } catch (error) {
      logger.error({ err: error, eventId: envelope.id }, `${envelope.type} handler failed`);
      return outcomeOfFailure(policy, message.info.deliveryCount, error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private reply(message: JsMsg, outcome: HandlerOutcome, where: Record<string, unknown>): void {
    const { logger } = this.options;
    switch (outcome.outcome) {
      case 'done':
        message.ack();
        return;
      case 'retry':
        logger.warn({ ...where, delayMs: outcome.delayMs, reason: outcome.reason }, 'event will be retried');
        message.nak(outcome.delayMs);
        return;
      case 'poison':
        logger.error({ ...where, reason: outcome.reason }, 'terminated an event its handler refused');
        terminate(message);
        return;
    }
  }
}

/**
 * `+TERM` without a reason: nats-server 2.9 ignores `+TERM <reason>` (the reason came with 2.10) and
 * would redeliver the message. The reason is in our log line instead.
 */
function terminate(message: JsMsg): void {
  message.term();
}
