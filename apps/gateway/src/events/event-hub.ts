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

/**
 * The in-memory fan-out: every feed event the reader hands over is offered to every open stream,
 * which checks its filters and its access in memory. AccessChanged re-resolves the named users'
 * streams (holding their events meanwhile); a periodic re-check is the safety net.
 */
@Injectable()
export class EventHub implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EventHub.name);
  private readonly subscribers = new Set<Subscriber>();
  private timers: NodeJS.Timeout[] = [];

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

  /** A new stream: it receives live events from now on (held until it goes live). */
  subscribe(
    options: Omit<SubscriberOptions, 'queueLimitBytes' | 'onSent' | 'onEnd' | 'resumeFrom'> & {
      resumeFrom?: number;
    },
  ): Subscriber {
    const subscriber = new Subscriber({
      ...options,
      // A fresh stream is owed what follows the last event handed out before it joined.
      resumeFrom: options.resumeFrom ?? this.feed.position,
      queueLimitBytes: this.config.SSE_QUEUE_LIMIT_BYTES,
      onSent: (queuedBytes) => this.metrics.eventSent(queuedBytes),
      onEnd: (ended, reason) => {
        if (!this.subscribers.delete(ended)) return;
        this.metrics.subscribers.set(this.subscribers.size);
        this.metrics.endedFor(reason);
      },
    });
    this.subscribers.add(subscriber);
    this.metrics.subscribers.set(this.subscribers.size);
    // The client may have gone while its token was checked: its 'close' came before anyone listened.
    if (options.response.destroyed) subscriber.close('client');
    return subscriber;
  }

  /** The caller behind a token, as a subscriber's access: 401 and 503 come as ApiError / HttpException. */
  async resolveAccess(authorization: string): Promise<SubscriberAccess> {
    const caller = await this.callers.resolve(authorization);
    return SubscriberAccess.from(await this.callers.fullContext(caller.user_uuid));
  }

  private dispatch(event: FeedEvent): void {
    try {
      if (event.kind === 'skipped') {
        this.logger.warn(`feed event ${event.seq} not streamed: ${event.reason}`);
      } else if (event.kind === 'access') {
        const users = new Set(event.userUuids);
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
