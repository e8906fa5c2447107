import { z } from 'zod';
import type { EventContract } from '../envelope';
import { withRenamedField } from '../renamed-field';

/**
 * OrderDone: the provider carried out the order.
 * Published by the vSphere adapter (through its outbox) on `<ns>.vsphere.order.done`; consumed by
 * the order service, which moves the order to `done` and its resource to OK (or Terminated).
 * At least once; `correlationId` is the order uuid.
 */
export const orderDoneSchema = withRenamedField(
  z.object({
    orderUuid: z.uuid(),
    /** The marketplace resource the order is for (`resourceUuid` before the rename: still read). */
    marketplaceResourceUuid: z.uuid(),
    /** The backend object's own id (the VM's uuid in vCenter), absent for a terminate order. */
    backendId: z.string().min(1).optional(),
    /** The backend's own reference of the object (the VM's managed object id, `vm-42`). */
    backendRef: z.string().min(1).optional(),
    /**
     * What the backend object has now, as the resource's limits (`cpu`, `ram`, `disk` in MiB): vCenter
     * may round or refuse part of a change, and the resource shows what is, not what was asked.
     */
    limits: z.record(z.string(), z.number().int().nonnegative()).optional(),
  }),
  // Events an older version published stay in the streams past an upgrade.
  'resourceUuid',
  'marketplaceResourceUuid',
);

export type OrderDone = z.infer<typeof orderDoneSchema>;

export const OrderDoneEvent: EventContract<OrderDone> = {
  type: 'OrderDone',
  schema: orderDoneSchema,
  legacyNames: { resourceUuid: 'marketplaceResourceUuid' },
};
