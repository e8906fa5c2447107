import { z } from 'zod';
import type { EventContract } from '../envelope';
import { virtualMachineViewSchema } from './virtual-machine.requests';

/**
 * VmChanged: a VM's runtime state changed (a power action, or vCenter found it changed). Published
 * by the vSphere adapter through its outbox, in the transaction of the change, on
 * `<ns>.vsphere.feed.vm`; streamed by the gateway's SSE to the VM's project members and its
 * customer's owners (`vm.project_uuid`, `vm.customer_uuid`). At least once; `correlationId` is the
 * VM's uuid. Carries the VM as `GET /api/vmware-virtual-machine/{uuid}/` shows it (without links).
 */
export const vmChangedSchema = z.object({
  previousState: virtualMachineViewSchema.shape.runtime_state,
  vm: virtualMachineViewSchema,
});

export type VmChanged = z.infer<typeof vmChangedSchema>;

export const VmChangedEvent: EventContract<VmChanged> = { type: 'VmChanged', schema: vmChangedSchema };
