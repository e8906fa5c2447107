import {
  POWER_ACTIONS,
  vmOperationViewSchema,
  VM_GET,
  VM_LIST,
  VM_ACTION_OPERATIONS,
  virtualMachineViewSchema,
  type VirtualMachineView,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import { apiRoute as route, type ApiRoute, type Presenter } from './route';

const tag = 'vmware';
const base = '/api/vmware-virtual-machine/';

/** A VM as `GET /api/vmware-virtual-machine/{uuid}/` and the SSE's VmChanged show it. */
export function presentVm(view: VirtualMachineView, links: Links): object {
  return {
    url: links.resource('vmware-virtual-machine', view.uuid),
    ...view,
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
  };
}

const vm: Presenter<VirtualMachineView> = {
  schema: virtualMachineViewSchema.extend({ url: z.url(), offering: z.url() }),
  present: presentVm,
};

const operation: Presenter<object> = { schema: vmOperationViewSchema, present: (view) => view };

/** The VMs orders made (Waldur's `vmware-virtual-machine`) and their power actions: the adapter answers. */
export const VIRTUAL_MACHINE_ROUTES: readonly ApiRoute[] = [
  route(
    'get',
    base,
    VM_LIST,
    {
      operationId: 'vmware_virtual_machine_list',
      summary: "Virtual machines of the caller's organisations",
      tag,
    },
    { resource: vm, list: true },
  ),
  route(
    'get',
    `${base}{uuid}/`,
    VM_GET,
    { operationId: 'vmware_virtual_machine_retrieve', summary: 'A virtual machine', tag },
    { resource: vm },
  ),
  ...POWER_ACTIONS.map((action) =>
    route(
      'post',
      `${base}{uuid}/${action}/`,
      VM_ACTION_OPERATIONS[action],
      {
        operationId: `vmware_virtual_machine_${action}`,
        summary: `Power action ${action} (409 with the reason when the VM's state does not allow it)`,
        tag,
        status: 202,
      },
      { resource: operation },
    ),
  ),
];
