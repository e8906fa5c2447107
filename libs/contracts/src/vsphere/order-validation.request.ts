import { z } from 'zod';
import { ORDER_TYPES } from '../orders/order-views';

/**
 * `vsphere-internal.orders.validate`: asked by the order service before it stores a `VMware.VirtualMachine`
 * order (and for a dry run), answered by the vSphere adapter with RequestReply<VsphereOrderValidation>.
 * The order service has already checked the caller, the project, the offering and the plan; the
 * adapter checks what only it knows: the template, the offering's maximums, the placement the
 * customer may use (assignments, basic mode) and, for Update and Terminate, the VM's power state.
 *
 * A refusal is a 400 whose `fields` name the attribute or limit (`template`, `cluster`, `networks`,
 * `cpu`, `ram`, `disk`, `cores_per_socket`, ...) with Waldur's messages ("This network is not
 * available for this customer.", "Default cluster is not defined for this service."); a VM in the
 * wrong power state is a 409 with the reason in `detail`.
 */
export const VSPHERE_ORDER_VALIDATION = 'vsphere-internal.orders.validate';

export const vsphereOrderValidationRequestSchema = z.strictObject({
  offering_uuid: z.uuid(),
  /** The customer (organisation) of the order's project: whose assignments apply. */
  customer_uuid: z.uuid(),
  type: z.enum(ORDER_TYPES),
  /** As the user sent them: links (URL, path or uuid) to the template, cluster, networks, ... */
  attributes: z.record(z.string(), z.unknown()),
  limits: z.record(z.string(), z.number()),
  /** For Update and Terminate: the VM the resource holds (its uuid in vCenter), if it has one. */
  vm_uuid: z.string().min(1).nullable(),
});
export type VsphereOrderValidationRequest = z.infer<typeof vsphereOrderValidationRequestSchema>;

/**
 * The order as it will be stored and deployed: links reduced to uuids, defaults filled in from the
 * template and the customer's placement (basic mode), limits in MiB with the template's where unset.
 */
export const vsphereOrderValidationSchema = z.object({
  attributes: z.record(z.string(), z.unknown()),
  limits: z.record(z.string(), z.number()),
});
export type VsphereOrderValidation = z.infer<typeof vsphereOrderValidationSchema>;
