import {
  AccessChangedEvent,
  envelopeSchema,
  IntegrationStateChangedEvent,
  OfferingChangedEvent,
  OrderStateChangedEvent,
  ResourceStateChangedEvent,
  SyncFinishedEvent,
  SyncStartedEvent,
  TERMINAL_ORDER_STATES,
  VmChangedEvent,
  type OfferingView,
} from '@app/contracts';
import { offeringScope, offeringScopeUuid, present, type Links } from '../rest/links';
import { presentOperation, presentVm } from '../rest/vm-presenters';

/** The event types a subscriber may receive and filter on (`?type=`). AccessChanged is internal. */
export const PUBLIC_EVENT_TYPES = [
  'OrderStateChanged',
  'ResourceStateChanged',
  'OfferingChanged',
  'VmChanged',
  'SyncStarted',
  'SyncFinished',
  'IntegrationStateChanged',
] as const;
export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

/** What an event is about: what filters match and what access decides on, read once per event. */
export interface EventScope {
  readonly orderUuid?: string;
  readonly marketplaceResourceUuid?: string;
  readonly projectUuid?: string;
  readonly offeringUuid: string;
  readonly customerUuid: string;
  /** The offering's customer: its owners see the orders and resources of their offerings. */
  readonly providerUuid: string;
  /** Seen by every signed-in user (an Active offering, as the public catalogue lists it). */
  readonly public: boolean;
}

/** A feed event to forward: its sequence (the SSE `id:`), type, scope, and its frame per origin. */
export interface PublicFeedEvent {
  readonly kind: 'public';
  readonly seq: number;
  readonly type: PublicEventType;
  readonly scope: EventScope;
  /** The order reached done, erred, canceled or rejected: `/marketplace-orders/{uuid}/events` ends. */
  readonly terminalOrder: boolean;
  /** When the object changed (its `modified`, ms): an order or resource event, not an offering's. */
  readonly changedAt?: number;
  /** The whole SSE message, rendered once per origin (links are absolute) and shared by subscribers. */
  frame(links: Links): Buffer;
}

export interface AccessFeedEvent {
  readonly kind: 'access';
  readonly seq: number;
  readonly userUuids: readonly string[];
}

/** Not forwarded: malformed, or a type the gateway does not stream. The reason is logged. */
export interface SkippedFeedEvent {
  readonly kind: 'skipped';
  readonly seq: number;
  readonly reason: string;
}

export type FeedEvent = PublicFeedEvent | AccessFeedEvent | SkippedFeedEvent;

/** One SSE message. JSON.stringify escapes line breaks, so `data` is always one line. */
export function sseFrame(fields: { id?: number; event: string; data: unknown }): Buffer {
  const id = fields.id === undefined ? '' : `id: ${fields.id}\n`;
  return Buffer.from(`${id}event: ${fields.event}\ndata: ${JSON.stringify(fields.data)}\n\n`, 'utf8');
}

function publicEvent(
  seq: number,
  type: PublicEventType,
  scope: EventScope,
  terminalOrder: boolean,
  presentWith: (links: Links) => object,
  changedAt?: number,
): PublicFeedEvent {
  // Nearly every subscriber shares one origin: the frame is built once for each.
  const frames = new Map<string, Buffer>();
  return {
    kind: 'public',
    seq,
    type,
    scope,
    terminalOrder,
    changedAt,
    frame(links) {
      let frame = frames.get(links.origin);
      if (!frame) {
        frame = sseFrame({ id: seq, event: type, data: presentWith(links) });
        frames.set(links.origin, frame);
      }
      return frame;
    },
  };
}

/** An offering as `GET /api/marketplace-provider-offerings/{uuid}/` shows it (OfferingChanged's contract). */
function presentOffering(view: OfferingView, links: Links): object {
  const offering = links.resource('marketplace-public-offerings', view.uuid);
  return {
    url: links.resource('marketplace-provider-offerings', view.uuid),
    ...view,
    customer: links.resource('customers', view.customer_uuid),
    plans: view.plans.map((plan) => ({ url: `${offering}plans/${plan.uuid}/`, ...plan, offering })),
    scope: offeringScope(view, links),
    scope_uuid: offeringScopeUuid(view),
  };
}

/** SyncStarted, SyncFinished or IntegrationStateChanged: the contract's data as the adapter published it. */
function integrationEvent(
  seq: number,
  type: 'SyncStarted' | 'SyncFinished' | 'IntegrationStateChanged',
  parsed: { success: true; data: { offeringUuid: string; providerUuid: string | null } } | { success: false },
): FeedEvent {
  if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
  const event = parsed.data;
  return publicEvent(
    seq,
    type,
    {
      offeringUuid: event.offeringUuid,
      // The provider's owners see them. An integration never told its customer: no owner matches ''.
      customerUuid: event.providerUuid ?? '',
      providerUuid: event.providerUuid ?? '',
      public: false,
    },
    false,
    // The integration's public view inside never holds the password.
    () => event,
  );
}

/**
 * A feed message as the gateway forwards it. The publisher validated it; the gateway checks again
 * (the feed is shared, and a bad message must cost one log line, not a subscriber's stream).
 */
export function decodeFeedEvent(seq: number, payload: Uint8Array): FeedEvent {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return { kind: 'skipped', seq, reason: 'not JSON' };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) return { kind: 'skipped', seq, reason: 'not an event envelope' };
  const { type, data, correlationId } = envelope.data;
  switch (type) {
    case OrderStateChangedEvent.type: {
      const parsed = OrderStateChangedEvent.schema.safeParse(data);
      if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
      const order = parsed.data.order;
      return publicEvent(
        seq,
        'OrderStateChanged',
        {
          orderUuid: order.uuid,
          marketplaceResourceUuid: order.marketplace_resource_uuid,
          projectUuid: order.project_uuid,
          offeringUuid: order.offering_uuid,
          customerUuid: order.customer_uuid,
          providerUuid: order.provider_uuid,
          public: false,
        },
        TERMINAL_ORDER_STATES.includes(order.state),
        (links) => present.order(order, links),
        Date.parse(order.modified),
      );
    }
    case ResourceStateChangedEvent.type: {
      const parsed = ResourceStateChangedEvent.schema.safeParse(data);
      if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
      const resource = parsed.data.resource;
      return publicEvent(
        seq,
        'ResourceStateChanged',
        {
          // The contract's correlationId is the order that caused the change.
          orderUuid: correlationId,
          marketplaceResourceUuid: resource.uuid,
          projectUuid: resource.project_uuid,
          offeringUuid: resource.offering_uuid,
          customerUuid: resource.customer_uuid,
          providerUuid: resource.provider_uuid,
          public: false,
        },
        false,
        (links) => present.resource(resource, links),
        Date.parse(resource.modified),
      );
    }
    case OfferingChangedEvent.type: {
      const parsed = OfferingChangedEvent.schema.safeParse(data);
      if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
      const offering = parsed.data.offering;
      return publicEvent(
        seq,
        'OfferingChanged',
        {
          offeringUuid: offering.uuid,
          customerUuid: offering.customer_uuid,
          providerUuid: offering.customer_uuid,
          public: offering.state === 'Active',
        },
        false,
        (links) => presentOffering(offering, links),
      );
    }
    case VmChangedEvent.type: {
      const parsed = VmChangedEvent.schema.safeParse(data);
      if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
      const { vm, operation } = parsed.data;
      // A VM recorded before its customer was: no owner matches '' (staff still see it).
      const customerUuid = vm.customer_uuid ?? '';
      return publicEvent(
        seq,
        'VmChanged',
        {
          marketplaceResourceUuid: vm.marketplace_resource_uuid,
          projectUuid: vm.project_uuid ?? undefined,
          offeringUuid: vm.offering_uuid,
          customerUuid,
          // The VM's own customer: its project's members and its owners see it, not the provider's.
          providerUuid: customerUuid,
          public: false,
        },
        false,
        // The VM as its REST GET shows it, plus the operation whose progress made the change.
        (links) => ({
          ...presentVm(vm, links),
          operation: operation === null ? null : presentOperation(operation, links),
        }),
      );
    }
    case SyncStartedEvent.type:
      return integrationEvent(seq, 'SyncStarted', SyncStartedEvent.schema.safeParse(data));
    case SyncFinishedEvent.type:
      return integrationEvent(seq, 'SyncFinished', SyncFinishedEvent.schema.safeParse(data));
    case IntegrationStateChangedEvent.type:
      return integrationEvent(
        seq,
        'IntegrationStateChanged',
        IntegrationStateChangedEvent.schema.safeParse(data),
      );
    case AccessChangedEvent.type: {
      const parsed = AccessChangedEvent.schema.safeParse(data);
      if (!parsed.success) return { kind: 'skipped', seq, reason: `invalid ${type}` };
      return { kind: 'access', seq, userUuids: parsed.data.user_uuids };
    }
    default:
      return { kind: 'skipped', seq, reason: `type ${type} is not streamed` };
  }
}
