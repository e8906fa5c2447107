import { messages, validateRequest } from '@app/contracts';
import { z } from 'zod';
import { ApiError } from '../rest/http-types';
import { PUBLIC_EVENT_TYPES, type PublicEventType, type PublicFeedEvent } from './feed-event';

const uuid = () => z.uuid({ error: messages.uuid }).optional();
const eventId = z
  .string()
  .regex(/^\d{1,15}$/, 'Must be an event id: the whole number of the last event received.')
  .transform(Number);

/** `GET /api/events`'s query: every filter optional, all of them must match (AND). */
export const eventStreamQuery = z.object({
  order_uuid: uuid().meta({ description: 'Events of this order and of the resource changes it caused' }),
  resource_uuid: uuid().meta({ description: 'Events of this marketplace resource and of its orders' }),
  project_uuid: uuid(),
  offering_uuid: uuid(),
  customer_uuid: uuid().meta({ description: "The consumer's customer (an offering's own customer)" }),
  type: z
    .string()
    .transform((value, ctx) => {
      const types = value.split(',').map((part) => part.trim());
      const unknown = types.filter((t) => !(PUBLIC_EVENT_TYPES as readonly string[]).includes(t));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown event type "${unknown[0]}": must be among ${PUBLIC_EVENT_TYPES.join(', ')}.`,
        });
        return z.NEVER;
      }
      return types as PublicEventType[];
    })
    .optional()
    .meta({ description: `Comma-separated event types: ${PUBLIC_EVENT_TYPES.join(', ')}` }),
  last_event_id: eventId
    .optional()
    .meta({ description: 'Resume after this event (for clients that cannot send `Last-Event-ID`)' }),
});

export const orderEventsParams = z.strictObject({ uuid: z.uuid({ error: messages.uuid }) });

export interface EventFilter {
  readonly orderUuid?: string;
  readonly marketplaceResourceUuid?: string;
  readonly projectUuid?: string;
  readonly offeringUuid?: string;
  readonly customerUuid?: string;
  readonly types?: ReadonlySet<PublicEventType>;
}

/** True when the event passes every filter given. */
export function matches(filter: EventFilter, event: PublicFeedEvent): boolean {
  const scope = event.scope;
  return (
    (filter.types === undefined || filter.types.has(event.type)) &&
    (filter.orderUuid === undefined || scope.orderUuid === filter.orderUuid) &&
    (filter.marketplaceResourceUuid === undefined ||
      scope.marketplaceResourceUuid === filter.marketplaceResourceUuid) &&
    (filter.projectUuid === undefined || scope.projectUuid === filter.projectUuid) &&
    (filter.offeringUuid === undefined || scope.offeringUuid === filter.offeringUuid) &&
    (filter.customerUuid === undefined || scope.customerUuid === filter.customerUuid)
  );
}

/** Validates with the REST layer's messages: a 400 naming each bad field. */
export function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = validateRequest(schema, value);
  if (parsed.ok) return parsed.value;
  const reply = parsed.reply;
  throw new ApiError(
    400,
    reply.status === 'error' && reply.fields ? reply.fields : { detail: 'Invalid input.' },
  );
}

/** The filters and resume point of `GET /api/events`. */
export function parseEventStreamQuery(query: Record<string, unknown>): {
  filter: EventFilter;
  lastEventId?: number;
} {
  const parsed = validated(eventStreamQuery, query);
  return {
    filter: {
      orderUuid: parsed.order_uuid,
      marketplaceResourceUuid: parsed.resource_uuid,
      projectUuid: parsed.project_uuid,
      offeringUuid: parsed.offering_uuid,
      customerUuid: parsed.customer_uuid,
      types: parsed.type && new Set(parsed.type),
    },
    lastEventId: parsed.last_event_id,
  };
}

/**
 * Where to resume: the `Last-Event-ID` header (what EventSource sends on a reconnect, so it wins)
 * or the `last_event_id` query parameter; undefined for a fresh stream.
 */
export function resumePoint(
  header: string | string[] | undefined,
  fromQuery: number | undefined,
): number | undefined {
  if (header === undefined || header === '') return fromQuery;
  const parsed = eventId.safeParse(Array.isArray(header) ? header[0] : header);
  if (!parsed.success) throw new ApiError(400, { 'Last-Event-ID': [parsed.error.issues[0].message] });
  return parsed.data;
}
