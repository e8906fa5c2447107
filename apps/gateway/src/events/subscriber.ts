import type { HttpResponse } from '../rest/http-types';
import type { Links } from '../rest/links';
import { matches, type EventFilter } from './event-filter';
import { sseFrame, type PublicFeedEvent } from './feed-event';
import type { SubscriberAccess } from './subscriber-access';

/** Why a stream ended, for the metrics and the log. */
export type EndReason =
  'client' | 'overflow' | 'unauthorized' | 'order-terminal' | 'shutdown' | 'refused' | 'failed';

export interface SubscriberOptions {
  readonly response: HttpResponse;
  readonly filter: EventFilter;
  readonly access: SubscriberAccess;
  /** The `Authorization` header it connected with: checked again on AccessChanged and periodically. */
  readonly authorization: string;
  readonly links: Links;
  /** The id the client already has: its Last-Event-ID, or where the feed was when it connected. */
  readonly resumeFrom: number;
  /** Bytes the gateway may hold for this client before it is dropped. */
  readonly queueLimitBytes: number;
  /** Ends the stream after this order's terminal OrderStateChanged. */
  readonly endOnTerminalOrder?: string;
  /** After each event written, with the bytes now waiting for this client. */
  readonly onSent: (queuedBytes: number) => void;
  readonly onEnd: (subscriber: Subscriber, reason: EndReason) => void;
}

/**
 * One SSE client. Events reach it in feed order, from a replay or from the live fan-out; `lastSeq`
 * is the highest sequence it has been offered, so an event offered twice (by the replay and by the
 * live reader) is written once. While it joins (replaying its gap) or while its access is being
 * resolved again, live events wait in `pending`, counted against the same byte limit as the socket.
 */
export class Subscriber {
  lastSeq = 0;
  /** The last id the client has (written to it, or given by it): where it resumes. */
  lastSentSeq: number;
  access: SubscriberAccess;
  /** Bumped by each re-resolution asked for: only the latest one releases held events. */
  accessGeneration = 0;
  private joining = true;
  private holding = false;
  private pending: PublicFeedEvent[] = [];
  private pendingBytes = 0;
  private ended = false;
  /** A snapshot was written of the state at this time (ms): earlier changes are covered by it. */
  private coveredUntil?: number;
  private settledWaiters: (() => void)[] = [];

  constructor(private readonly options: SubscriberOptions) {
    this.access = options.access;
    this.lastSentSeq = options.resumeFrom;
    options.response.once('close', () => this.end('client'));
  }

  get authorization(): string {
    return this.options.authorization;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Bytes waiting for this client: in the response's buffer and in `pending`. */
  get queuedBytes(): number {
    return this.options.response.writableLength + this.pendingBytes;
  }

  /** A live event from the fan-out. */
  offer(event: PublicFeedEvent): void {
    if (this.ended) return;
    if (this.joining || this.holding) {
      if (!this.interested(event)) return;
      this.pending.push(event);
      this.pendingBytes += event.frame(this.options.links).length;
      if (this.queuedBytes > this.options.queueLimitBytes) this.overflow();
      return;
    }
    this.deliver(event);
  }

  /** An event of the replay, or one released from `pending`. Returns false once the stream ended. */
  deliver(event: PublicFeedEvent): boolean {
    if (this.ended) return false;
    if (event.seq <= this.lastSeq) return true;
    this.lastSeq = event.seq;
    if (!this.interested(event) || !this.access.canSee(event.scope)) return true;
    // Committed before the snapshot but relayed after it: the snapshot already shows that state.
    if (this.coveredUntil !== undefined && (event.changedAt ?? Infinity) <= this.coveredUntil) return true;
    this.options.response.write(event.frame(this.options.links));
    this.lastSentSeq = event.seq;
    this.options.onSent(this.queuedBytes);
    if (this.options.endOnTerminalOrder === event.scope.orderUuid && event.terminalOrder) {
      this.close('order-terminal');
      return false;
    }
    if (this.queuedBytes > this.options.queueLimitBytes) {
      this.overflow();
      return false;
    }
    return true;
  }

  /** The replay is done: what arrived live meanwhile follows, without a repeat. */
  goLive(): void {
    this.joining = false;
    if (!this.holding) this.release();
  }

  /** Access is being resolved again: events wait until it is known (they are checked against it). */
  hold(): number {
    this.holding = true;
    return ++this.accessGeneration;
  }

  /**
   * Resolves once no re-resolution of access is pending (or the stream ended): a replay waits on
   * it, so what it writes after an AccessChanged is checked against the new access too.
   */
  settled(): Promise<void> {
    if (!this.holding || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** The re-resolution `generation` finished: new access, and the events it held are checked against it. */
  resolved(generation: number, access: SubscriberAccess): void {
    if (generation !== this.accessGeneration) return;
    this.access = access;
    this.holding = false;
    this.wakeSettled();
    if (!this.joining) this.release();
  }

  /** Written as is, outside the feed (history-lost, the order's current state); no id unless given. */
  writeControl(event: string, data: unknown, id?: number): void {
    if (this.ended) return;
    this.options.response.write(sseFrame({ id, event, data }));
    if (id !== undefined) this.lastSentSeq = id;
  }

  /**
   * The order's current state, written with the feed sequence it stands for: it covers every
   * earlier event, and every change committed by `changedAt` (the order's `modified`) that the
   * outbox relays only after it was read.
   */
  writeSnapshot(seq: number, event: string, data: unknown, changedAt?: number): void {
    this.writeControl(event, data, seq);
    this.lastSeq = Math.max(this.lastSeq, seq);
    this.coveredUntil = changedAt;
  }

  /** The request was refused before the stream opened: forgotten, nothing written. */
  discard(): void {
    this.end('refused');
  }

  /** A comment line: keeps proxies from closing an idle stream. */
  heartbeat(): void {
    // Not before the stream is open: a write would send an implicit 200 while the request is still
    // being checked (a 404 for a stranger's order would then have no head left to go in).
    if (!this.options.response.headersSent) return;
    if (!this.ended && this.queuedBytes <= this.options.queueLimitBytes) this.options.response.write(':\n\n');
  }

  /** Resolves once the client has read what is buffered (or the stream ended). */
  async drained(): Promise<void> {
    const response = this.options.response;
    if (this.ended || response.writableLength < this.options.queueLimitBytes / 2) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        response.off('drain', done);
        response.off('close', done);
        resolve();
      };
      response.once('drain', done);
      response.once('close', done);
    });
  }

  /** Ends the stream (after what was written, for a client still reading). */
  close(reason: EndReason): void {
    if (this.ended) return;
    this.options.response.end();
    this.end(reason);
  }

  private overflow(): void {
    // The final message goes after what is queued, so it names the last id the client will have read.
    this.writeControl('overflow', {
      detail: 'The client fell behind the event stream; reconnect with Last-Event-ID to resume.',
      last_event_id: String(this.lastSentSeq),
    });
    this.options.response.end();
    this.end('overflow');
    // A client that never reads would keep its buffer (and this socket) for ever.
    const socket = this.options.response.socket;
    setTimeout(() => socket?.destroy(), 5_000).unref();
  }

  private release(): void {
    const pending = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    for (const event of pending) if (!this.deliver(event)) return;
  }

  /** Passes its filters and its access: what `deliver` would write. */
  wants(event: PublicFeedEvent): boolean {
    return this.interested(event) && this.access.canSee(event.scope);
  }

  private wakeSettled(): void {
    for (const wake of this.settledWaiters.splice(0)) wake();
  }

  private interested(event: PublicFeedEvent): boolean {
    return matches(this.options.filter, event);
  }

  private end(reason: EndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.wakeSettled();
    this.pending = [];
    this.pendingBytes = 0;
    this.options.onEnd(this, reason);
  }
}
