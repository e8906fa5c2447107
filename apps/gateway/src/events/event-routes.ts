import { z } from 'zod';
import type { StreamRoute } from '../rest/route';
import { eventStreamQuery, orderEventsParams } from './event-filter';
import type { EventStreamEndpoint } from './event-stream.endpoint';

const RESUME =
  'Resume with `Last-Event-ID` (or `?last_event_id=`): the missed events follow in order, once; if they ' +
  'are older than the history kept, an `history-lost` event says so first. A client that falls behind ' +
  'gets a final `overflow` event and is disconnected: it reconnects with its last id. Comment lines ' +
  'are heartbeats. The token goes in the `Authorization` header only.';

/** The SSE streams: documented with the REST routes, served by the event stream endpoint. */
export function eventRoutes(endpoint: EventStreamEndpoint): StreamRoute[] {
  return [
    {
      kind: 'stream',
      method: 'get',
      path: '/api/events',
      operationId: 'events_stream',
      summary: 'Server-Sent Events: order, resource and offering changes the caller may see',
      description: `Filters combine (all must match). ${RESUME}`,
      tag: 'events',
      params: z.strictObject({}),
      query: eventStreamQuery,
      handler: (request, response, origin) => endpoint.events(request, response, origin),
    },
    {
      kind: 'stream',
      method: 'get',
      path: '/api/marketplace-orders/{uuid}/events',
      operationId: 'marketplace_orders_events',
      summary:
        "An order's events: its current state, then its and its resource's changes until it is terminal",
      description: `The stream ends after the order reaches done, erred, canceled or rejected. ${RESUME}`,
      tag: 'events',
      params: orderEventsParams,
      query: eventStreamQuery.pick({ last_event_id: true }),
      handler: (request, response, origin) => endpoint.orderEvents(request, response, origin),
    },
  ];
}
