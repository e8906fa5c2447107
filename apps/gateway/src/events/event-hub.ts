import {
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CONFIG, type GatewayConfig } from '../config/gateway.config';
import { CallerResolver } from '../rest/caller-resolver';
import { ApiError } from '../rest/http-types';
import type { FeedEvent } from './feed-event';
import { FeedReader } from './feed-reader';
import { SseMetrics } from './sse-metrics';
import { Subscriber, type SubscriberOptions } from './subscriber';
import { SubscriberAccess } from './subscriber-access';

const RETRY_RESOLVE_MS = 1_000;
/** Users whose last AccessChanged is remembered for streams still resolving their access; beyond, all re-resolve. */
const ACCESS_MARKS_KEPT = 10_000;

/**
 * The in-memory fan-out: every feed event the reader hands over is offered to every open stream,
 * which checks its filters and its access in memory. AccessChanged re-resolves the named users'
 * streams (holding their events meanwhile); a periodic re-check is the safety net.
 */
@Injectable()
export class EventHub implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EventHub.name);
  private readonly subscribers = new Set<Subscriber>();
  /** Open streams per user, for the cap (this instance's: a user may hold as many on each gateway). */
  private readonly streamsPerUser = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];
  /** AccessChanged events handled so far, and the count at each user's last one (see `accessMark`). */
  private accessChanges = 0;
  private readonly lastAccessChange = new Map<string, number>();
  /** Marks below this were forgotten (the map was cleared): a stream resolved before it re-resolves. */
  private forgottenBelow = 0;

  constructor(
    private readonly feed: FeedReader,
    private readonly callers: CallerResolver,
    private readonly metrics: SseMetrics,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    this.feed.onEvent((event) => this.dispatch(event));
    this.timers = [
      setInterval(() => this.heartbeat(), this.config.SSE_HEARTBEAT_MS),
      setInterval(() => this.recheckAll(), this.config.SSE_RECHECK_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
    for (const subscriber of [...this.subscribers]) subscriber.close('shutdown');
  }

  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Where the hub is in the AccessChanged events, taken before a new stream's access is asked for:
   * one of its user's that is handled while the answer is on its way (the answer may hold the grants
   * of just before) finds no stream to re-resolve, so `subscribe` re-resolves it.
   */
  accessMark(): number {
    return this.accessChanges;
  }

  /**
   * A new stream: it receives live events from now on (held until it goes live). A user already
   * holding `SSE_MAX_STREAMS_PER_USER` streams here is refused with a 429 (ApiError): each stream
   * costs a socket, a queue and a share of every fan-out, and one token must not take them all.
   */
  subscribe(
    options: Omit<SubscriberOptions, 'queueLimitBytes' | 'onSent' | 'onEnd' | 'resumeFrom'> & {
      resumeFrom?: number;
      /** `accessMark()` from before `options.access` was asked for. */
      accessMark?: number;
    },
  ): Subscriber {
    const user = options.access.userUuid;
    const open = this.streamsPerUser.get(user) ?? 0;
    const max = this.config.SSE_MAX_STREAMS_PER_USER;
    if (open >= max) {
      this.metrics.overCap.inc();
      throw new ApiError(429, {
        detail: `Too many open event streams: at most ${max} per user. Close one to open another.`,
      });
    }
    this.streamsPerUser.set(user, open + 1);
    const subscriber = new Subscriber({
      ...options,
      // A fresh stream is owed what follows the last event handed out before it joined.
      resumeFrom: options.resumeFrom ?? this.feed.position,
      queueLimitBytes: this.config.SSE_QUEUE_LIMIT_BYTES,
      onSent: (queuedBytes) => this.metrics.eventSent(queuedBytes),
      onEnd: (ended, reason) => {
        if (!this.subscribers.delete(ended)) return;
        const left = (this.streamsPerUser.get(user) ?? 1) - 1;
        if (left > 0) this.streamsPerUser.set(user, left);
        else this.streamsPerUser.delete(user);
        this.metrics.subscribers.set(this.subscribers.size);
        this.metrics.endedFor(reason);
      },
    });
    this.subscribers.add(subscriber);
    this.metrics.subscribers.set(this.subscribers.size);
    const mark = options.accessMark;
    if (mark !== undefined && (mark < this.forgottenBelow || (this.lastAccessChange.get(user) ?? 0) > mark))
      void this.reResolve(subscriber, subscriber.hold());
    // The client may have gone while its token was checked: its 'close' came before anyone listened.
    if (options.response.destroyed) subscriber.close('client');
    return subscriber;
  }

  /** The caller behind a token, as a subscriber's access: 401 and 503 come as ApiError / HttpException. */
  async resolveAccess(authorization: string): Promise<SubscriberAccess> {
    return SubscriberAccess.from(await this.callers.fullContext(authorization));
  }

  private dispatch(event: FeedEvent): void {
    try {
      if (event.kind === 'skipped') {
        this.logger.warn(`feed event ${event.seq} not streamed: ${event.reason}`);
      } else if (event.kind === 'access') {
        const users = new Set(event.userUuids);
        this.accessChanges += 1;
        if (this.lastAccessChange.size + users.size > ACCESS_MARKS_KEPT) {
          this.lastAccessChange.clear();
          this.forgottenBelow = this.accessChanges;
        }
        for (const user of users) this.lastAccessChange.set(user, this.accessChanges);
        for (const subscriber of this.subscribers)
          if (users.has(subscriber.access.userUuid)) void this.reResolve(subscriber, subscriber.hold());
      } else {
        for (const subscriber of this.subscribers) subscriber.offer(event);
      }
    } catch (error) {
      this.logger.error(`fan-out of feed event ${event.seq} failed: ${String(error)}`);
    }
  }

  /** Resolves a stream's access again; a token or user no longer valid ends it. */
  private async reResolve(subscriber: Subscriber, generation: number): Promise<void> {
    while (!subscriber.closed) {
      try {
        subscriber.resolved(generation, await this.resolveAccess(subscriber.authorization));
        return;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          subscriber.close('unauthorized');
          return;
        }
        const transient =
          error instanceof ServiceUnavailableException || (error instanceof ApiError && error.status === 503);
        if (!transient) {
          this.logger.error(`access of an SSE subscriber not resolved: ${String(error)}`);
          subscriber.close('unauthorized');
          return;
        }
        // The order service is away: events stay held (bounded by the queue limit) until it answers.
        await new Promise((resolve) => setTimeout(resolve, RETRY_RESOLVE_MS));
        if (generation !== subscriber.accessGeneration) return;
      }
    }
  }

  private heartbeat(): void {
    for (const subscriber of this.subscribers) subscriber.heartbeat();
  }

  /** The safety net: every stream's token and access again, spread over the period so they do not all ask at once. */
  private recheckAll(): void {
    const subscribers = [...this.subscribers];
    const spacing = this.config.SSE_RECHECK_MS / Math.max(subscribers.length, 1) / 2;
    subscribers.forEach((subscriber, index) => {
      setTimeout(() => {
        if (!subscriber.closed) void this.reResolve(subscriber, subscriber.accessGeneration);
      }, index * spacing).unref();
    });
  }
}
