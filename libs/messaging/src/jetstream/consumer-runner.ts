import type { Envelope, EventContract } from '@app/contracts';
import type { Consumer, ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@app/platform/logging/json-logger';
import { withOrderContext } from '@app/platform/logging/json-logger';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import { isNatsUp } from '../nats/nats-connection';
import { watchReconnects, type ReconnectWatch } from '../nats/reconnects';
import { outcomeOfFailure, type ConsumerPolicy } from './consumer-policy';
import { decodeEvent } from './decode-event';
import type { HandlerOutcome } from './handler-outcome';
import type { DurableSpec } from './ensure-topology';
import { untilJetStreamAnswers } from './until-jetstream-answers';

export interface DeliveryContext {
  deliveryCount: number;
  /** Tells the server the work goes on; the runner also does this by itself while a handler runs. */
  working(): void;
  /** Fires when the handler passed its deadline or the process is stopping: stop and let it redeliver. */
  signal: AbortSignal;
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
  /** The connection `js` works over: a pull or look-up sent while it is down is started over when it is back. */
  connection: NatsConnection;
  durable: DurableSpec;
  routes: EventRoute<unknown>[];
  policy: ConsumerPolicy;
  logger: Logger;
  metrics?: MessagingMetrics;
}

class HandlerDeadline extends Error {}

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A look-up of the durable abandoned because the connection came back meanwhile: ask again now. */
class ReconnectedMeanwhile extends Error {}

// After a pull fails (the consumer was deleted, JetStream was away at the pull), the durable is
// opened again after this pause rather than leaving the service deaf.
const REOPEN_PAUSE_MS = 1_000;
/**
 * How long one pull waits at the consumer's leader. The server sends a heartbeat every half of it,
 * and two missed heartbeats end the pull, so the next one goes to whichever node leads the consumer.
 * With the library's 30 s default, a durable whose leader's node died stayed deaf for 30 s (all of
 * a shorter outage): a pull waiting on a dead node is never answered nor expired by anyone.
 */
const PULL_EXPIRES_MS = 3_000;

/**
 * Pulls from a durable consumer, no more than it has free slots for, and maps every handler
 * outcome to ack, nak with delay or term.
 * A malformed message (not JSON, or failing its schema) is terminated with a logged reason and the
 * loop goes on. Up to `policy.concurrency` messages are handled at once; a handler past
 * `policy.handlerTimeoutMs` is abandoned and its message redelivered.
 */
export class ConsumerRunner {
  private consumer?: Consumer;
  private batch?: ConsumerMessages;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private loop?: Promise<void>;
  private readonly stopSignal = new AbortController();
  private readonly stopped = new Promise<void>((resolve) =>
    this.stopSignal.signal.addEventListener('abort', () => resolve(), { once: true }),
  );

  private reconnects?: ReconnectWatch;
  /** Resolves at the connection's next reconnection (a new one each time). */
  private reconnected = signalled();

  private get stopping(): boolean {
    return this.stopSignal.signal.aborted;
  }

  constructor(private readonly options: ConsumerRunnerOptions) {}

  /**
   * Opens the durable, waiting while JetStream says "not now": on a cluster that has just regained
   * its quorum, the durable's set-up can be answered and its first look-up refused (10008) a moment
   * later — an order service then exited at start in the quorum e2e suite.
   */
  async start(): Promise<void> {
    const { logger, durable } = this.options;
    this.reconnects = watchReconnects(this.options.connection, () => this.onReconnect());
    this.consumer = await untilJetStreamAnswers(
      () => this.open(),
      (reason, delayMs) =>
        logger.warn({ reason, delayMs, durable: durable.durable }, 'waiting for JetStream to open a durable'),
    );
    this.loop = this.keepPulling();
  }

  /**
   * Stops pulling and waits for the messages in hand, at most `graceMs`; those still running then
   * are aborted and nak'ed, so another instance (or this one, restarted) takes them at once.
   */
  async stop(graceMs = this.options.policy.handlerTimeoutMs): Promise<void> {
    this.stopSignal.abort();
    this.reconnects?.stop();
    await this.batch?.close();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    for (const controller of this.aborts) controller.abort(new Error('the consumer is stopping'));
    await Promise.allSettled([...this.inFlight]);
  }

  private open(): Promise<Consumer> {
    const { js, durable } = this.options;
    return js.consumers.get(durable.stream, durable.durable);
  }

  /**
   * The connection is back: what was asked before or during the outage (the pull under way, a
   * look-up of the durable) went nowhere and would only end at its expiry or timeout, so the pull
   * is ended now and the loop asks again at once.
   */
  private onReconnect(): void {
    if (this.stopping) return;
    const previous = this.reconnected;
    this.reconnected = signalled();
    previous.resolve();
    void this.batch?.close();
  }

  /** The next reconnection, or the stop. */
  private untilReconnected(): Promise<void> {
    return Promise.race([this.reconnected.promise, this.stopped]);
  }

  /** The durable, looked up again when the connection comes back before the answer does. */
  private async openUnlessReconnected(): Promise<Consumer> {
    const lookUp = this.open();
    lookUp.catch(() => undefined);
    const abandoned = this.reconnected.promise.then(() => {
      throw new ReconnectedMeanwhile();
    });
    abandoned.catch(() => undefined);
    return Promise.race([lookUp, abandoned]);
  }

  /**
   * Pulls only as many messages as there are free slots, once there are: a message this process
   * holds is a message being handled, its ack wait kept alive by the handler's heartbeats. The
   * library's `consume()` pulls the next messages once three quarters of a window has arrived, not
   * once it is handled, so behind a full window about another window waited in the client, its ack
   * wait running out: under load, VM orders were redelivered (to the other instance too) while still
   * queued here, and each was then worked twice (8 of 12 messages in the runner's test).
   */
  private async keepPulling(): Promise<void> {
    while (!this.stopping) {
      try {
        if (this.consumer === undefined) {
          // Asked while the client dials, the look-up would reach no server: wait for the link.
          if (!isNatsUp(this.options.connection)) await this.untilReconnected();
          if (this.stopping) return;
          this.consumer = await this.openUnlessReconnected();
        }
        await this.pullFreeSlots(this.consumer);
      } catch (error) {
        this.consumer = undefined;
        if (this.stopping) return;
        if (error instanceof ReconnectedMeanwhile) continue;
        // The durable deleted, JetStream away at the pull, its leader's node gone (missed
        // heartbeats): opened again after a pause, or as soon as the connection is back, rather
        // than leaving the service deaf.
        this.options.logger.warn({ err: error, durable: this.options.durable.durable }, 'pull failed');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise((resolve) => (timer = setTimeout(resolve, REOPEN_PAUSE_MS))),
          this.untilReconnected(),
        ]);
        clearTimeout(timer);
      }
    }
  }

  private async pullFreeSlots(consumer: Consumer): Promise<void> {
    const { concurrency } = this.options.policy;
    while (this.inFlight.size >= concurrency && !this.stopping)
      await Promise.race([...this.inFlight, this.stopped]);
    if (this.stopping) return;
    const link = this.reconnected;
    this.batch = await consumer.fetch({
      max_messages: concurrency - this.inFlight.size,
      expires: PULL_EXPIRES_MS,
    });
    // A stop, or a reconnection, that came while the pull was being sent: end it now, not when it
    // expires.
    if (this.stopping || this.reconnected !== link) void this.batch.close();
    for await (const message of this.batch) {
      if (this.stopping) {
        message.nak();
        continue;
      }
      const task = this.handle(message).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
    }
  }

  private async handle(message: JsMsg): Promise<void> {
    const { routes, logger, durable, metrics } = this.options;
    const where = { subject: message.subject, seq: message.seq, durable: durable.durable };
    if (message.info.deliveryCount > 1) metrics?.consumerRedeliveries.inc({ durable: durable.durable });
    const decoded = decodeEvent(
      message.data,
      routes.map((candidate) => candidate.contract),
    );
    if (!decoded.ok) {
      logger.warn({ ...where, reason: decoded.reason }, 'terminated a malformed message');
      this.settle(message, { outcome: 'poison', reason: decoded.reason });
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
    const controller = new AbortController();
    this.aborts.add(controller);
    const heartbeat = setInterval(() => message.working(), Math.max(policy.ackWaitMs / 3, 200));
    let deadline: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => {
        const error = new HandlerDeadline(`handler passed its deadline of ${policy.handlerTimeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, policy.handlerTimeoutMs);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
        once: true,
      });
    });
    try {
      return await Promise.race([
        handler(envelope, {
          deliveryCount: message.info.deliveryCount,
          working: () => message.working(),
          signal: controller.signal,
        }),
        expired,
      ]);
    } catch (error) {
      if (controller.signal.aborted) {
        // Abandoned (deadline or shutdown): the work may still finish in the background, and the
        // inbox makes its redelivery harmless; the slot is free again now.
        const reason = error instanceof Error ? error.message : String(error);
        logger.warn({ eventId: envelope.id, reason }, `${envelope.type} handler abandoned`);
        return { outcome: 'retry', delayMs: 0, reason };
      }
      logger.error({ err: error, eventId: envelope.id }, `${envelope.type} handler failed`);
      return outcomeOfFailure(policy, message.info.deliveryCount, error);
    } finally {
      clearInterval(heartbeat);
      clearTimeout(deadline);
      this.aborts.delete(controller);
    }
  }

  private reply(message: JsMsg, outcome: HandlerOutcome, where: Record<string, unknown>): void {
    const { logger } = this.options;
    if (outcome.outcome === 'retry') {
      logger.warn({ ...where, delayMs: outcome.delayMs, reason: outcome.reason }, 'event will be retried');
    } else if (outcome.outcome === 'poison') {
      logger.error({ ...where, reason: outcome.reason }, 'terminated an event its handler refused');
    }
    this.settle(message, outcome);
  }

  /**
   * `+TERM` goes without a reason: nats-server 2.9 ignores `+TERM <reason>` (the reason came with
   * 2.10) and would redeliver the message. The reason is in our log line instead.
   */
  private settle(message: JsMsg, outcome: HandlerOutcome): void {
    const durable = this.options.durable.durable;
    if (outcome.outcome === 'done') message.ack();
    else if (outcome.outcome === 'retry') message.nak(outcome.delayMs);
    else message.term();
    this.options.metrics?.consumerMessages.inc({ durable, outcome: outcome.outcome });
  }
}
