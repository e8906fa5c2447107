import { randomUUID } from 'node:crypto';
import {
  OrderDoneEvent,
  OrderErredEvent,
  OrderSubmittedEvent,
  VSPHERE_ORDER_VALIDATION,
  type Envelope,
  type OrderSubmitted,
  type Page,
  type RequestReply,
  type VsphereOrderValidation,
  type VsphereOrderValidationRequest,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import { jetstream } from '@nats-io/jetstream';
import { asString, readVirtualMachines, retrieveFromView, type VimConnection, type VmInfo } from '@app/vim25';
import { readEnvelopes } from '../../../../test/support/stream-reader';
import type { TestNats } from '../../../../test/support/test-nats';
import { ask, dataOf, staff, type RequestClient } from './requests';

/** An inventory object as the lists show it. */
export interface Listed {
  uuid: string;
  name: string;
  backend_id: string;
}

/** The inventory of one offering, by name, as the adapter imported it. */
export async function inventoryOf(
  client: RequestClient,
  offeringUuid: string,
): Promise<Record<'templates' | 'clusters' | 'networks' | 'datastores' | 'folders', Map<string, Listed>>> {
  const list = async (kind: string) =>
    new Map(
      dataOf(
        await ask<Page<Listed>>(client, `vsphere.${kind}.list`, {
          caller: staff(),
          params: {},
          query: { offering_uuid: offeringUuid, page_size: 100 },
          body: {},
        }),
      ).items.map((o) => [o.name, o]),
    );
  const [templates, clusters, networks, datastores, folders] = await Promise.all(
    ['templates', 'clusters', 'networks', 'datastores', 'folders'].map(list),
  );
  return { templates, clusters, networks, datastores, folders };
}

/** Assigns an object to a customer (as staff). */
export async function assign(
  client: RequestClient,
  kind: 'clusters' | 'networks' | 'datastores' | 'folders',
  customer: string,
  objectUuid: string,
): Promise<void> {
  const field = { clusters: 'cluster', networks: 'network', datastores: 'datastore', folders: 'folder' }[
    kind
  ];
  dataOf(
    await ask(client, `vsphere.assignments.${kind}.add`, {
      caller: staff(),
      params: {},
      query: {},
      body: { customer, [field]: objectUuid },
    }),
  );
}

/** Asks `vsphere.orders.validate`. */
export function validate(
  client: RequestClient,
  request: Partial<VsphereOrderValidationRequest> &
    Pick<VsphereOrderValidationRequest, 'offering_uuid' | 'customer_uuid'>,
): Promise<RequestReply<VsphereOrderValidation>> {
  return ask(client, VSPHERE_ORDER_VALIDATION, {
    type: 'Create',
    attributes: {},
    limits: {},
    vm_uuid: null,
    ...request,
  });
}

/** An OrderSubmitted as the order service publishes it, with fresh order and resource uuids unless given. */
export function orderSubmitted(
  overrides: Partial<OrderSubmitted> & Pick<OrderSubmitted, 'offeringUuid'>,
): OrderSubmitted {
  return {
    orderUuid: randomUUID(),
    orderType: 'Create',
    offeringType: 'VMware.VirtualMachine',
    projectUuid: randomUUID(),
    customerUuid: randomUUID(),
    marketplaceResourceUuid: randomUUID(),
    backendId: null,
    attributes: {},
    limits: {},
    ...overrides,
  };
}

/** Publishes an envelope on the marketplace stream, as the order service's relay does. */
export async function publishOrder(nats: TestNats, envelope: Envelope<OrderSubmitted>): Promise<void> {
  await publishEvent(
    jetstream(nats.nc),
    nats.topology.subjects.orderSubmitted('VMware.VirtualMachine'),
    envelope,
  );
}

export function envelopeOf(order: OrderSubmitted): Envelope<OrderSubmitted> {
  return buildEnvelope(OrderSubmittedEvent, order, order.orderUuid);
}

/** Every OrderDone and OrderErred the adapter published for `orderUuid`. */
export async function answersFor(
  nats: TestNats,
  orderUuid: string,
): Promise<{ done: Envelope[]; erred: Envelope[] }> {
  const stream = nats.topology.streams.vsphere.name;
  const of = async (subject: string) =>
    (await readEnvelopes(nats.jsm, stream, subject)).filter((e) => e.correlationId === orderUuid);
  return {
    done: await of(nats.topology.subjects.orderDone),
    erred: await of(nats.topology.subjects.orderErred),
  };
}

/**
 * Waits for the first answer to the order, its `data` as the order service reads it (its
 * contract's schema; `answersFor` has them as published); fails past `timeoutMs`.
 */
export async function waitForAnswer(
  nats: TestNats,
  orderUuid: string,
  timeoutMs = 30_000,
): Promise<{ type: 'OrderDone' | 'OrderErred'; data: Record<string, unknown> }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { done, erred } = await answersFor(nats, orderUuid);
    const [first] = [...done, ...erred];
    if (first !== undefined) {
      const type = first.type as 'OrderDone' | 'OrderErred';
      const contract = type === 'OrderDone' ? OrderDoneEvent : OrderErredEvent;
      return { type, data: contract.schema.parse(first.data) };
    }
    if (Date.now() > deadline) throw new Error(`no answer to order ${orderUuid}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The VMs in vcsim whose annotation carries the order's mark (read independently of the adapter). */
export async function vmsOfOrder(ctx: VimConnection, orderUuid: string): Promise<VmInfo[]> {
  const marked = await retrieveFromView(ctx.caller, ctx.content, {
    types: ['VirtualMachine'],
    propSet: [{ type: 'VirtualMachine', pathSet: ['config.annotation'] }],
  });
  const morefs = marked
    .filter((o) =>
      (asString(o.props.get('config.annotation')) ?? '').includes(`marketplace-order:${orderUuid}`),
    )
    .map((o) => o.obj.value);
  return (await readVirtualMachines(ctx)).filter((vm) => morefs.includes(vm.ref.value));
}

/** How many VMs in vCenter carry each order's mark in their annotation, by order uuid (one read of every VM). */
export async function vmCountsByOrder(ctx: VimConnection): Promise<Map<string, number>> {
  const marked = await retrieveFromView(ctx.caller, ctx.content, {
    types: ['VirtualMachine'],
    propSet: [{ type: 'VirtualMachine', pathSet: ['config.annotation'] }],
  });
  const counts = new Map<string, number>();
  for (const vm of marked) {
    const order = /marketplace-order:([0-9a-f-]{36})/.exec(
      asString(vm.props.get('config.annotation')) ?? '',
    )?.[1];
    if (order) counts.set(order, (counts.get(order) ?? 0) + 1);
  }
  return counts;
}

/** Waits until the adapter's OrderSubmitted consumer holds nothing: every message acked. */
export async function consumerSettled(nats: TestNats, timeoutMs = 30_000): Promise<void> {
  const { stream, durable } = nats.topology.consumers.adapterOrderSubmitted;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await nats.jsm.consumers.info(stream, durable);
    if (info.num_pending === 0 && info.num_ack_pending === 0) return;
    if (Date.now() > deadline) throw new Error(`consumer not settled: ${JSON.stringify(info)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Publishes the same envelope again under another Nats-Msg-Id (a redelivery the stream cannot drop). */
export async function republish(nats: TestNats, envelope: Envelope<OrderSubmitted>): Promise<void> {
  await jetstream(nats.nc).publish(
    nats.topology.subjects.orderSubmitted('VMware.VirtualMachine'),
    JSON.stringify(envelope),
    { msgID: randomUUID() },
  );
}
