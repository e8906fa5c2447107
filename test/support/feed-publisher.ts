import { randomUUID } from 'node:crypto';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type {
  Envelope,
  OfferingView,
  OrderState,
  OrderView,
  ResourceState,
  ResourceView,
} from '@app/contracts';
import type { TestNats } from './test-nats';

/** Where an order or resource belongs: what SSE filters and access look at. */
export interface FeedScope {
  project_uuid: string;
  customer_uuid: string;
  provider_uuid: string;
  offering_uuid: string;
}

const NOW = () => new Date().toISOString();

/** An order's public view (the contract's), with the scope given and plain defaults for the rest. */
export function orderView(scope: FeedScope, overrides: Partial<OrderView> = {}): OrderView {
  return {
    uuid: randomUUID(),
    type: 'Create',
    state: 'executing',
    ...scope,
    offering_name: 'Offering',
    offering_type: 'Marketplace.Basic',
    project_name: 'Project',
    customer_name: 'Customer',
    plan_uuid: null,
    plan_name: null,
    provider_name: 'Provider',
    marketplace_resource_uuid: randomUUID(),
    resource_uuid: null,
    resource_name: 'vm',
    attributes: {},
    limits: {},
    cost: null,
    error_message: '',
    created_by_uuid: null,
    created_by_username: null,
    created: NOW(),
    modified: NOW(),
    completed_at: null,
    ...overrides,
  };
}

export function resourceView(order: OrderView, state: ResourceState): ResourceView {
  return {
    uuid: order.marketplace_resource_uuid,
    name: order.resource_name,
    description: '',
    state,
    offering_uuid: order.offering_uuid,
    offering_name: order.offering_name,
    offering_type: order.offering_type,
    project_uuid: order.project_uuid,
    project_name: order.project_name,
    customer_uuid: order.customer_uuid,
    customer_name: order.customer_name,
    plan_uuid: order.plan_uuid,
    plan_name: order.plan_name,
    provider_uuid: order.provider_uuid,
    provider_name: order.provider_name,
    resource_uuid: null,
    backend_id: null,
    resource_type: order.offering_type,
    attributes: {},
    limits: {},
    cost: null,
    error_message: '',
    created: order.created,
    modified: NOW(),
  };
}

/**
 * Publishes feed events as the order service does (an envelope on its feed subject, the event id as
 * `Nats-Msg-Id`), on the suite's own namespace: the gateway reads them from the feed stream.
 */
export class FeedPublisher {
  private readonly js: JetStreamClient;

  constructor(private readonly nats: TestNats) {
    this.js = jetstream(nats.nc);
  }

  async order(order: OrderView, previous: OrderState | null = null): Promise<Envelope> {
    return this.publish(this.nats.topology.subjects.orderStateChanged, 'OrderStateChanged', order.uuid, {
      order,
      previous_state: previous,
    });
  }

  async resource(resource: ResourceView, orderUuid: string, previous: ResourceState | null = null) {
    return this.publish(this.nats.topology.subjects.resourceStateChanged, 'ResourceStateChanged', orderUuid, {
      resource,
      previous_state: previous,
    });
  }

  async offering(offering: OfferingView, change = 'updated'): Promise<Envelope> {
    return this.publish(this.nats.topology.subjects.offeringChanged, 'OfferingChanged', offering.uuid, {
      offering,
      change,
    });
  }

  async access(userUuids: string[]): Promise<Envelope> {
    return this.publish(this.nats.topology.subjects.accessChanged, 'AccessChanged', userUuids[0], {
      user_uuids: userUuids,
    });
  }

  async publish(subject: string, type: string, correlationId: string, data: unknown): Promise<Envelope> {
    const envelope: Envelope = { id: randomUUID(), type, occurredAt: NOW(), correlationId, data };
    await this.js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id });
    return envelope;
  }
}

/** An offering's public view (the contract's) in a state, with plain defaults for the rest. */
export function offeringView(
  uuid: string,
  customerUuid: string,
  state: OfferingView['state'],
  overrides: Partial<OfferingView> = {},
): OfferingView {
  return {
    uuid,
    name: 'Offering',
    description: '',
    category: '',
    type: 'VMware.VirtualMachine',
    state,
    customer_uuid: customerUuid,
    customer_name: 'Provider',
    terms_of_service: '',
    components: [],
    plans: [],
    created: NOW(),
    ...overrides,
  };
}
