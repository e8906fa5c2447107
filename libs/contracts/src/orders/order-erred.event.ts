import { z } from 'zod';
import type { EventContract } from '../envelope';
import { withRenamedField } from '../renamed-field';

/**
 * OrderErred: the provider could not carry out the order.
 * Published by the vSphere adapter (through its outbox) on `<ns>.vsphere.order.erred`; consumed by
 * the order service, which moves the order to `erred` with `errorMessage` and its resource to Erred.
 * At least once; `correlationId` is the order uuid.
 */
export const orderErredSchema = withRenamedField(
  z.object({
    orderUuid: z.uuid(),
    /** The marketplace resource the order is for (`resourceUuid` before the rename: still read). */
    marketplaceResourceUuid: z.uuid(),
    /** Shown to the user as the order's `error_message`: vCenter's own words where vCenter refused. */
    errorMessage: z.string().min(1),
    /** vCenter's fault type (e.g. `InvalidPowerState`) when the error came from vCenter. */
    faultType: z.string().min(1).optional(),
  }),
  // Events an older version published stay in the streams past an upgrade.
  'resourceUuid',
  'marketplaceResourceUuid',
);

export type OrderErred = z.infer<typeof orderErredSchema>;

export const OrderErredEvent: EventContract<OrderErred> = {
  type: 'OrderErred',
  schema: orderErredSchema,
  legacyNames: { resourceUuid: 'marketplaceResourceUuid' },
};
