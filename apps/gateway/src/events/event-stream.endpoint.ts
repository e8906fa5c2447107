import { Injectable, Logger } from '@nestjs/common';
import {
  ORDER_OPERATIONS,
  TERMINAL_ORDER_STATES,
  type OperationPayload,
  type OrderView,
  type RequestReply,
} from '@app/contracts';
import { refusal, sendError } from '../rest/api-handler';
import { CallerResolver, tokenFromHeader } from '../rest/caller-resolver';
import type { HttpRequest, HttpResponse } from '../rest/http-types';
import { Links, present } from '../rest/links';
import { ServiceRequester } from '../services/service-requester';
import {
  eventStreamQuery,
  orderEventsParams,
  parseEventStreamQuery,
  resumePoint,
  validated,
} from './event-filter';
import { EventHub } from './event-hub';
import { FeedReader } from './feed-reader';
import type { PublicFeedEvent } from './feed-event';
import type { Subscriber } from './subscriber';
import { SubscriberAccess } from './subscriber-access';

const orderEventsQuery = eventStreamQuery.pick({ last_event_id: true });

/** How long an EventSource waits before reconnecting after a dropped connection. */
const RETRY_MS = 2_000;

/**
 * `GET /api/events` and `GET /api/marketplace-orders/{uuid}/events`: authenticate and validate as
 * REST does (401, 400 naming the parameter), resolve the caller's access once, replay the gap a
 * `Last-Event-ID` asks for, then join the live fan-out.
 *
 * The token comes only in the `Authorization` header, never in the URL (`?token=`): URLs end up in
 * proxy logs, browser history and `Referer`. Browser clients use a fetch-based SSE reader that sets
 * headers; `?last_event_id=` is accepted for those that cannot send `Last-Event-ID`.
 */
@Injectable()
export class EventStreamEndpoint {
  private readonly logger = new Logger(EventStreamEndpoint.name);

  constructor(
    private readonly callers: CallerResolver,
    private readonly requester: ServiceRequester,
    private readonly hub: EventHub,
    private readonly feed: FeedReader,
  ) {}

  async events(request: HttpRequest, response: HttpResponse, fallbackOrigin: string): Promise<void> {
    let subscriber: Subscriber | undefined;
    try {
      const authorization = request.headers.authorization ?? '';
      // Before the access is asked: an AccessChanged handled while it is on its way is not missed.
      const accessMark = this.hub.accessMark();
      // The token resolved by the order service to the caller's grants: 401 before any 400.
      const access = SubscriberAccess.from(await this.callers.fullContext(authorization));
      const { filter, lastEventId: fromQuery } = parseEventStreamQuery(request.query);
      const lastEventId = resumePoint(request.headers['last-event-id'], fromQuery);
      subscriber = this.hub.subscribe({
        response,
        filter,
        access,
        accessMark,
        authorization,
        links: Links.for(request, fallbackOrigin),
        resumeFrom: lastEventId,
      });
      openStream(response);
      if (lastEventId !== undefined) await this.replayGap(subscriber, lastEventId);
      subscriber.goLive();
    } catch (error) {
      this.fail(response, subscriber, error);
    }
  }

  /** The order's current state first, then its changes (and its resource's); ends once it is terminal. */
  async orderEvents(request: HttpRequest, response: HttpResponse, fallbackOrigin: string): Promise<void> {
    let subscriber: Subscriber | undefined;
    try {
      const authorization = request.headers.authorization ?? '';
      const accessMark = this.hub.accessMark();
      const access = SubscriberAccess.from(await this.callers.fullContext(authorization));
      const { uuid } = validated(orderEventsParams, request.params);
      const query = validated(orderEventsQuery, request.query);
      const lastEventId = resumePoint(request.headers['last-event-id'], query.last_event_id);
      const links = Links.for(request, fallbackOrigin);
      // Subscribed before the feed's end is read and the order is asked: nothing after falls between.
      subscriber = this.hub.subscribe({
        response,
        filter: { orderUuid: uuid },
        access,
        accessMark,
        authorization,
        links,
        endOnTerminalOrder: uuid,
        resumeFrom: lastEventId,
      });
      const { firstAvailable, last } = await this.feed.bounds();
      const order = await this.currentOrder(authorization, uuid);
      const terminal = TERMINAL_ORDER_STATES.includes(order.state);
      if (lastEventId === undefined) {
        // The order as it is now stands for every event up to `last` (committed before it was read).
        openStream(response);
        subscriber.writeSnapshot(
          last,
          'OrderStateChanged',
          present.order(order, links),
          Date.parse(order.modified),
        );
        return terminal ? subscriber.close('order-terminal') : subscriber.goLive();
      }
      if (!terminal) {
        openStream(response);
        await this.replayGap(subscriber, lastEventId);
        return subscriber.goLive();
      }
      // A reconnect after the order ended: what the client missed up to the terminal event, or
      // 204 (which tells an EventSource to stop reconnecting) when it has seen that already.
      if (lastEventId + 1 < firstAvailable) {
        openStream(response);
        historyLost(subscriber, lastEventId, firstAvailable);
        subscriber.writeSnapshot(
          last,
          'OrderStateChanged',
          present.order(order, links),
          Date.parse(order.modified),
        );
        return subscriber.close('order-terminal');
      }
      const missed = await this.untilTerminal(subscriber, lastEventId + 1, last);
      if (!missed) {
        subscriber.discard();
        response.writeHead(204);
        response.end();
        return;
      }
      openStream(response);
      for (const event of missed) if (!subscriber.deliver(event)) break;
    } catch (error) {
      this.fail(response, subscriber, error);
    }
  }

  private async currentOrder(authorization: string, uuid: string): Promise<OrderView> {
    const payload: OperationPayload = {
      caller: { token: tokenFromHeader(authorization) },
      params: { uuid },
      query: {},
      body: {},
    };
    const reply = await this.requester.request<RequestReply<OrderView>>(
      ORDER_OPERATIONS.get.pattern,
      payload,
    );
    if (reply.status === 'error') throw refusal(reply);
    return reply.data;
  }

  /** Replays what followed `lastEventId`, or says that part of it is gone and replays what is left. */
  private async replayGap(subscriber: Subscriber, lastEventId: number): Promise<void> {
    const { firstAvailable, last } = await this.feed.bounds();
    let from = lastEventId + 1;
    // Beyond the end: the stream was recreated, its history is not the client's.
    if (from < firstAvailable || lastEventId > last) {
      historyLost(subscriber, lastEventId, firstAvailable);
      from = firstAvailable;
    }
    await this.feed.replay(from, last, async (event) => {
      if (event.kind !== 'public') return !subscriber.closed;
      // An AccessChanged arrived live meanwhile: the rest of the replay is checked against the new access.
      await subscriber.settled();
      if (!subscriber.deliver(event)) return false;
      await subscriber.drained();
      return !subscriber.closed;
    });
  }

  /** The subscriber's events from `from` up to its order's terminal event; undefined if none is terminal. */
  private async untilTerminal(
    subscriber: Subscriber,
    from: number,
    to: number,
  ): Promise<PublicFeedEvent[] | undefined> {
    const events: PublicFeedEvent[] = [];
    let terminal = false;
    await this.feed.replay(from, to, (event) => {
      if (event.kind === 'public' && subscriber.wants(event)) {
        events.push(event);
        terminal = event.terminalOrder && event.type === 'OrderStateChanged';
      }
      // One order's events are few; the bound only guards against a misbehaving publisher.
      return Promise.resolve(!terminal && events.length < 10_000);
    });
    return terminal ? events : undefined;
  }

  private fail(response: HttpResponse, subscriber: Subscriber | undefined, error: unknown): void {
    if (!response.headersSent) {
      subscriber?.discard();
      sendError(response, error);
      return;
    }
    // The stream was open (the replay lost NATS): the client reconnects with its last id.
    this.logger.warn(`SSE stream ended by an error: ${String(error)}`);
    subscriber?.close('failed');
  }
}

function historyLost(subscriber: Subscriber, lastEventId: number, firstAvailable: number): void {
  subscriber.writeControl('history-lost', {
    detail:
      'Events after the given Last-Event-ID are no longer kept; the stream continues from the oldest event held.',
    last_event_id: String(lastEventId),
    first_available_id: String(firstAvailable),
  });
}

function openStream(response: HttpResponse): void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    // nginx and its kind buffer proxied answers unless told not to.
    'X-Accel-Buffering': 'no',
  });
  response.write(`retry: ${RETRY_MS}\n\n`);
}
