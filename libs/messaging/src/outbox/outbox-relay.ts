import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import type { Envelope } from '@app/contracts';
import type { Logger } from '@app/platform/logging/json-logger';
import { publishEvent } from '../jetstream/publish-event';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import type { OutboxRepository, PendingEvent } from './repositories/outbox.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { classifyPublishFailure, publishRetryDelay } from './publish-failure';

export type Publish = (js: JetStreamClient, subject: string, envelope: Envelope) => Promise<PubAck>;

export interface OutboxRelayOptions {
  /** Each pass is one transaction: the relay's turn (a transaction-scoped lock) lasts as long. */
  unitOfWork: UnitOfWork;
  outbox: OutboxRepository;
  js: JetStreamClient;
  logger: Logger;
  /** Period of the sweep that recovers what a crash or a NATS outage left unpublished. */
  sweepMs: number;
  /** False while the NATS connection is down: a pass then waits instead of failing every event. */
  natsUp?: () => boolean;
  batchSize?: number;
  /** Failed publishes (NATS up) after which an event is parked; an unpublishable one is parked at once. */
  maxAttempts?: number;
  metrics?: MessagingMetrics;
  /** The publish call; tests inject failures here. */
  publish?: Publish;
  /** False: this relay never publishes (OUTBOX_RELAY_ENABLED=false); events wait for another. */
  enabled?: boolean;
}

// A pass that finds another relay's turn in progress comes back this soon.
const TURN_TAKEN_RETRY_MS = 25;

/** An event that did not go out in a pass: parked for good, or to be tried again after its backoff. */
interface Setback {
  id: string;
  reason: string;
  park: boolean;
  retryInMs: number;
  counted: boolean;
}

interface PassResult {
  published: number;
  /** The batch was full and nothing failed: there may be more right now. */
  more: boolean;
  /** When to come back for events whose backoff runs (ms), if any. */
  retryInMs?: number;
}

/**
 * Publishes outbox rows to JetStream and marks them sent. `wake()` right after a commit keeps the
 * hot path free of polling delay; the sweep only catches up after failures.
 *
 * Order: one relay at a time per schema (an advisory lock held for the pass), and within a pass the
 * events of one aggregate go out one after another, in commit order, while different aggregates go
 * out side by side. An event that fails blocks only the later events of its own aggregate, until it
 * is published or parked; so no failure lets a later event of the same aggregate overtake it.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped: boolean;

  constructor(private readonly options: OutboxRelayOptions) {
    this.stopped = !this.enabled;
  }

  get enabled(): boolean {
    return this.options.enabled ?? true;
  }

  start(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.wake(), this.options.sweepMs);
    this.wake();
  }

  /** Schedules a pass; calls during a pass coalesce into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Lets the pass under way finish (its publishes and marks), then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    await this.running;
  }

  private natsUp(): boolean {
    return this.options.natsUp?.() ?? true;
  }

  private wakeIn(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.wake(), ms);
  }

  private async drain(): Promise<void> {
    if (!this.natsUp()) return; // the sweep comes back; nothing to gain from timeouts meanwhile
    try {
      for (;;) {
        const result = await this.pass();
        if (result === 'turn-taken') return this.wakeIn(TURN_TAKEN_RETRY_MS);
        if (result.retryInMs !== undefined) this.wakeIn(result.retryInMs);
        if (!result.more) return;
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'outbox relay pass failed; the sweep will retry');
    }
  }

  private async pass(): Promise<PassResult | 'turn-taken'> {
    const { unitOfWork, outbox } = this.options;
    const batchSize = this.options.batchSize ?? 100;
    return unitOfWork.run(async (tx) => {
      if (!(await outbox.takeRelayTurn(tx))) return 'turn-taken' as const;
      const pending = await outbox.pending(tx, batchSize);
      const sent: string[] = [];
      const setbacks: Setback[] = [];
      await Promise.all(
        [...byAggregate(pending).values()].map((events) => this.publishInOrder(events, sent, setbacks)),
      );
      // Written one after another: one connection carries the whole pass.
      for (const setback of setbacks) {
        if (setback.park) await outbox.park(tx, setback.id, setback.reason);
        else await outbox.markFailed(tx, setback.id, setback.reason, setback.retryInMs, setback.counted);
      }
      await outbox.markPublished(tx, sent);
      const retries = setbacks.filter((setback) => !setback.park).map((setback) => setback.retryInMs);
      this.options.metrics?.outboxPublished.inc(sent.length);
      return {
        published: sent.length,
        more: pending.length === batchSize && retries.length === 0 && sent.length > 0,
        retryInMs: retries.length > 0 ? Math.min(...retries) : undefined,
      };
    });
  }

  /** One aggregate's events, one after another; stops at the first that must wait. */
  private async publishInOrder(events: PendingEvent[], sent: string[], setbacks: Setback[]): Promise<void> {
    const { js, logger } = this.options;
    const publish = this.options.publish ?? publishEvent;
    const maxAttempts = this.options.maxAttempts ?? 10;
    for (const event of events) {
      try {
        await publish(js, event.subject, event.envelope);
        sent.push(event.id);
        continue;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const kind = classifyPublishFailure(error);
        // A cluster without a quorum for minutes must not park events: only what the server refused,
        // or failures while NATS is up that are not mere unanswered requests, count toward parking.
        const counted =
          kind === 'unpublishable' || kind === 'rejected' || (kind === 'transient' && this.natsUp());
        const attempts = event.attempts + (counted ? 1 : 0);
        const where = { eventId: event.id, subject: event.subject, aggregate: event.aggregate, attempts };
        if (kind === 'unpublishable' || (counted && attempts >= maxAttempts)) {
          logger.error({ ...where, reason }, 'outbox event parked: it cannot be published');
          setbacks.push({ id: event.id, reason, park: true, retryInMs: 0, counted });
          this.options.metrics?.outboxParked.inc();
          continue; // parked for good: the aggregate's later events go on
        }
        const delay = publishRetryDelay(Math.max(attempts, 1));
        logger.warn({ ...where, reason, retryInMs: delay }, 'outbox event not published yet');
        setbacks.push({ id: event.id, reason, park: false, retryInMs: delay, counted });
        return;
      }
    }
  }
}

/** Pending events grouped by aggregate, each group in commit order. */
function byAggregate(events: PendingEvent[]): Map<string, PendingEvent[]> {
  const groups = new Map<string, PendingEvent[]>();
  for (const event of events) {
    const group = groups.get(event.aggregate);
    if (group) group.push(event);
    else groups.set(event.aggregate, [event]);
  }
  return groups;
}
