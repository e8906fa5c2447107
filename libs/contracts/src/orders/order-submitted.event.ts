import { z } from 'zod';
import type { EventContract } from '../envelope';
import { withRenamedField } from '../renamed-field';
import { ORDER_TYPES } from './order-views';

/**
 * OrderSubmitted: an order reached `executing` and waits for its provider.
 * Published by the order service (through its outbox) on `<ns>.marketplace.order.submitted.<type>`;
 * consumed by the adapter of that offering type (the vSphere adapter for `VMware.VirtualMachine`).
 * At least once; `Nats-Msg-Id` is the envelope id; `correlationId` is the order uuid.
 */
export const orderSubmittedSchema = withRenamedField(
  z.object({
    orderUuid: z.uuid(),
    orderType: z.enum(ORDER_TYPES),
    offeringUuid: z.uuid(),
    offeringType: z.string().min(1),
    projectUuid: z.uuid(),
    /** The customer (organisation) of the project: whose assignments and folder the VM goes to. */
    customerUuid: z.uuid().optional(),
    /** The marketplace resource the order is for (`resourceUuid` before the rename: still read). */
    marketplaceResourceUuid: z.uuid(),
    /** Update and Terminate: the backend object the resource holds (the VM's uuid in vCenter). */
    backendId: z.string().min(1).nullable().optional(),
    /** As validated by the adapter at submission: links reduced to uuids, defaults filled in. */
    attributes: z.record(z.string(), z.unknown()),
    limits: z.record(z.string(), z.number().int().nonnegative()),
  }),
  // Events an older version published stay in the streams past an upgrade.
  'resourceUuid',
  'marketplaceResourceUuid',
);

export type OrderSubmitted = z.infer<typeof orderSubmittedSchema>;

export const OrderSubmittedEvent: EventContract<OrderSubmitted> = {
  type: 'OrderSubmitted',
  schema: orderSubmittedSchema,
  legacyNames: { resourceUuid: 'marketplaceResourceUuid' },
};
