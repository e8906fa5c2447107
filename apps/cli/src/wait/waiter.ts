import { setTimeout as sleep } from 'node:timers/promises';
import { API_PATHS } from '@app/contracts/http/api-paths';
import type { ApiClient } from '../http/api-client';
import type { DebugLog } from '../http/debug-log';
import { retryDelayMs } from '../http/retry-policy';
import { EventStream, StreamUnavailable, type StreamMessage } from './event-stream';

/** What to watch: the object's REST path, and the SSE filter that streams its changes. */
export interface WaitTarget {
  /** `order 0b6…`, for messages. */
  label: string;
  /** `GET` path of the object (`/api/marketplace-orders/{uuid}/` filled). */
  path: string;
  uuid: string;
  /** `/api/events` filters: `{order_uuid, type: 'OrderStateChanged'}`. */
  streamQuery: Record<string, string>;
  /** The SSE event type whose `data` is this object as GET returns it. */
  eventType: string;
}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs: number;
  /** True when the wait is over (condition met, or a terminal state the caller reports). */
  settled: (object: Record<string, unknown>) => boolean;
  /** Each version of the object seen (the live progress line). */
  onUpdate?: (object: Record<string, unknown>) => void;
}

export type WaitResult =
  | { kind: 'settled'; object: Record<string, unknown> }
  | { kind: 'timeout'; object: Record<string, unknown> | undefined };

/**
 * Waits on the gateway's SSE stream: the stream is opened first, then one GET catches a condition
 * already true, then each event's `data` is checked, with no request loop while the stream is up.
 * A dropped stream resumes with `Last-Event-ID`; a stream that cannot be opened (or reopened)
 * falls back to one GET per interval, said under `--debug`.
 */
export class Waiter {
  constructor(
    private readonly client: ApiClient,
    private readonly log: DebugLog,
  ) {}

  async wait(target: WaitTarget, options: WaitOptions): Promise<WaitResult> {
    const deadline = Date.now() + options.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    let latest: Record<string, unknown> | undefined;
    const seen = (object: Record<string, unknown>): boolean => {
      latest = object;
      options.onUpdate?.(object);
      return options.settled(object);
    };
    try {
      let stream = await this.tryOpen(target, undefined, controller.signal);
      if (seen(await this.fetch(target))) return { kind: 'settled', object: latest! };
      let lastEventId: string | undefined;
      while (stream) {
        for await (const message of stream.messages()) {
          if (message.id !== undefined) lastEventId = message.id;
          this.log.write(`received ${message.event} event ${message.id ?? '(no id)'}`);
          const object = await this.objectOf(message, target);
          if (object && seen(object)) return { kind: 'settled', object };
        }
        if (controller.signal.aborted) return { kind: 'timeout', object: latest };
        this.log.write(
          `event stream of ${target.label} ended; resuming after event ${lastEventId ?? '(none)'}`,
        );
        stream = await this.tryOpen(target, lastEventId, controller.signal);
        // Resumed without an id to resume from: the object may have changed in between.
        if (stream && lastEventId === undefined && seen(await this.fetch(target)))
          return { kind: 'settled', object: latest! };
      }
      if (controller.signal.aborted) return { kind: 'timeout', object: latest };
      this.log.write(`polling ${target.label} every ${options.intervalMs / 1000} s`);
      for (;;) {
        if (seen(await this.fetch(target))) return { kind: 'settled', object: latest! };
        const remaining = deadline - Date.now();
        if (remaining <= 0) return { kind: 'timeout', object: latest };
        await sleep(Math.min(options.intervalMs, remaining));
      }
    } catch (error) {
      if (controller.signal.aborted && (error as Error).name === 'AbortError')
        return { kind: 'timeout', object: latest };
      throw error;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private async tryOpen(
    target: WaitTarget,
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): Promise<EventStream | undefined> {
    // A gateway restarting or overloaded gets the GET retry rules (connection errors, 5xx, 429, with
    // backoff); a stream it does not serve (404) or refuses (401) means polling at once.
    for (let retry = 0; !signal.aborted; retry++) {
      try {
        return await EventStream.open(this.client, API_PATHS.events, target.streamQuery, {
          lastEventId,
          signal,
          log: this.log,
        });
      } catch (error) {
        if (!(error instanceof StreamUnavailable)) throw error;
        const delay = retryDelayMs('GET', error.outcome, retry, this.client.settings.maxRetries);
        if (delay === null || signal.aborted) {
          this.log.write(`event stream cannot be opened: ${error.message}; falling back to polling`);
          return undefined;
        }
        this.log.write(`event stream cannot be opened: ${error.message}; trying again in ${delay} ms`);
        try {
          await sleep(delay, undefined, { signal });
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  }

  private async fetch(target: WaitTarget): Promise<Record<string, unknown>> {
    return (await this.client.get<Record<string, unknown>>(target.path)).body;
  }

  /** The object an event carries, if it is about the target; `history-lost` means: read it again. */
  private async objectOf(
    message: StreamMessage,
    target: WaitTarget,
  ): Promise<Record<string, unknown> | undefined> {
    if (message.event === 'history-lost') return this.fetch(target);
    if (message.event !== target.eventType) return undefined;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      this.log.write(`ignored an event whose data is not JSON: ${message.data.slice(0, 200)}`);
      return undefined;
    }
    const object = data as Record<string, unknown> | null;
    return object && object.uuid === target.uuid ? object : undefined;
  }
}
