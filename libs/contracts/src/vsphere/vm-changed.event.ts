import { z } from 'zod';
import type { EventContract } from '../envelope';
import { RUNTIME_STATES, virtualMachineViewSchema, vmOperationViewSchema } from './vm-views';

/**
 * VmChanged: a VM, one of its disks or adapters changed (an operation began or ended, or a pull
 * found it changed in vCenter). Published by the vSphere adapter through its outbox, in the
 * transaction of the change, on `<ns>.vsphere.feed.vm`; streamed by the gateway's SSE to the VM's
 * project members and its customer's owners (`vm.project_uuid`, `vm.customer_uuid`). At least once;
 * `correlationId` is the VM's uuid, so a VM's events keep their order. Carries the VM as
 * `GET /api/vmware-virtual-machine/{uuid}/` shows it (without links), and the operation whose
 * progress made the change (null for a change found by a pull of its own).
 */
export const vmChangedSchema = z.object({
  previousState: z.enum(RUNTIME_STATES),
  vm: virtualMachineViewSchema,
  operation: vmOperationViewSchema.nullable(),
});

export type VmChanged = z.infer<typeof vmChangedSchema>;

export const VmChangedEvent: EventContract<VmChanged> = { type: 'VmChanged', schema: vmChangedSchema };

/**
 * The error a VmChanged carries (`vm.state` ERRED) when a pull found the VM gone from vCenter
 * (deleted there directly): the order service then counts the VM's resource as using nothing.
 * The adapter records it with this message (its `VM_GONE`).
 */
export const VM_GONE_FROM_VCENTER = 'The virtual machine no longer exists in vCenter.';
