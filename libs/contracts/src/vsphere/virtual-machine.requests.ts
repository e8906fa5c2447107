import { z } from 'zod';
import { paginationQuery } from '../identity/operation';
import { vsphereOperation } from './vsphere-operation';

export const RUNTIME_STATES = ['POWERED_ON', 'POWERED_OFF', 'SUSPENDED'] as const;
export type VmRuntimeState = (typeof RUNTIME_STATES)[number];

export const POWER_ACTIONS = ['start', 'stop', 'reset', 'suspend'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/**
 * A VM an order made, as Waldur's `vmware-virtual-machine` shows it. `uuid` is vCenter's instance
 * uuid, the marketplace resource's `resource_uuid`. MiB for ram and disk.
 */
export const virtualMachineViewSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  backend_id: z.string(),
  runtime_state: z.enum(RUNTIME_STATES),
  cores: z.number().int(),
  cores_per_socket: z.number().int(),
  ram: z.number().int(),
  disk: z.number().int(),
  marketplace_resource_uuid: z.uuid(),
  customer_uuid: z.uuid().nullable(),
  project_uuid: z.uuid().nullable(),
  offering_uuid: z.uuid(),
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
});
export type VirtualMachineView = z.infer<typeof virtualMachineViewSchema>;

/** A power action accepted and carried out: what was asked and the state the VM is in now. */
export const powerOperationViewSchema = z.object({
  uuid: z.string(),
  operation: z.enum(POWER_ACTIONS),
  runtime_state: z.enum(RUNTIME_STATES),
});
export type PowerOperationView = z.infer<typeof powerOperationViewSchema>;

const vmParams = z.strictObject({ uuid: z.string().min(1).max(64) });

/**
 * `vsphere.vm.list` (`/api/vmware-virtual-machine/`): core NATS request-reply from the gateway with
 * the caller's context; answered with RequestReply<Page<VirtualMachineView>>. Staff see every VM,
 * others those of their customers; ordered by name.
 */
export const VM_LIST = vsphereOperation('vsphere.vm.list', { query: z.object(paginationQuery) });

/** `vsphere.vm.get` (`/api/vmware-virtual-machine/{uuid}/`): 404 for a VM the caller may not see. */
export const VM_GET = vsphereOperation('vsphere.vm.get', { params: vmParams });

/**
 * `vsphere.vm.start|stop|reset|suspend` (`/api/vmware-virtual-machine/{uuid}/<action>/`): the
 * adapter checks the precondition (409 with the reason), carries the action out on vCenter one
 * operation per VM at a time (409 while another runs) and records the new runtime state; answered
 * with RequestReply<PowerOperationView>.
 */
export const VM_POWER_OPERATIONS = {
  start: vsphereOperation('vsphere.vm.start', { params: vmParams }),
  stop: vsphereOperation('vsphere.vm.stop', { params: vmParams }),
  reset: vsphereOperation('vsphere.vm.reset', { params: vmParams }),
  suspend: vsphereOperation('vsphere.vm.suspend', { params: vmParams }),
} as const satisfies Record<PowerAction, unknown>;
