import {
  API_PATHS,
  VM_ACTION_OPERATIONS,
  VM_ACTIONS,
  VM_CONSOLE,
  VM_CREATE_DISK,
  VM_CREATE_PORT,
  VM_GET,
  VM_LIST,
  VM_UPDATE,
  VM_WEB_CONSOLE,
  vmActionPath,
  type VmAction,
} from '@app/contracts';
import { apiRoute as route, type ApiRoute } from './route';
import { consoleUrl, disk, operation, port, vm } from './vm-presenters';

const tag = 'vmware';
const id = 'vmware_virtual_machine';

const ACTION_SUMMARIES: Record<VmAction, string> = {
  start: 'Power on (from POWERED_OFF or SUSPENDED)',
  stop: 'Power off (from POWERED_ON or SUSPENDED)',
  reset: 'Reset (from POWERED_ON)',
  suspend: 'Suspend (from POWERED_ON)',
  shutdown_guest: 'Shut the guest OS down (POWERED_ON, VMware Tools running)',
  reboot_guest: 'Reboot the guest OS (POWERED_ON, VMware Tools running)',
  pull: 'Read the VM from vCenter and record what changed there',
};

function action(name: VmAction): ApiRoute {
  return route(
    'post',
    vmActionPath(name),
    VM_ACTION_OPERATIONS[name],
    {
      operationId: `${id}_${name}`,
      summary: `${ACTION_SUMMARIES[name]}: queued behind the VM's other operations (409 with the reason when its state does not allow it)`,
      tag,
      status: 202,
    },
    { resource: operation },
  );
}

function update(method: 'patch' | 'put'): ApiRoute {
  return route(
    method,
    API_PATHS.vmwareVirtualMachine,
    VM_UPDATE,
    {
      operationId: method === 'patch' ? `${id}_partial_update` : `${id}_update`,
      summary: "Change CPU, cores per socket and RAM of a powered-off VM, within the offering's maximums",
      tag,
      status: 202,
    },
    { resource: operation },
  );
}

/**
 * The VMs orders made (Waldur's `vmware-virtual-machine`), their actions, resize, consoles and new
 * disks and adapters: the vSphere adapter answers.
 */
export const VIRTUAL_MACHINE_ROUTES: readonly ApiRoute[] = [
  route(
    'get',
    API_PATHS.vmwareVirtualMachines,
    VM_LIST,
    { operationId: `${id}_list`, summary: "Virtual machines of the caller's organisations", tag },
    { resource: vm, list: true },
  ),
  route(
    'get',
    API_PATHS.vmwareVirtualMachine,
    VM_GET,
    { operationId: `${id}_retrieve`, summary: 'A virtual machine', tag },
    { resource: vm },
  ),
  update('patch'),
  update('put'),
  ...VM_ACTIONS.map(action),
  route(
    'post',
    API_PATHS.vmwareVirtualMachineCreateDisk,
    VM_CREATE_DISK,
    {
      operationId: `${id}_create_disk`,
      summary: 'Add a disk (MiB): CREATING until vCenter has made it',
      tag,
      status: 201,
      idempotent: true,
    },
    { resource: disk },
  ),
  route(
    'post',
    API_PATHS.vmwareVirtualMachineCreatePort,
    VM_CREATE_PORT,
    {
      operationId: `${id}_create_port`,
      summary: 'Add a network adapter on a network assigned to the organisation (at most ten)',
      tag,
      status: 201,
      idempotent: true,
    },
    { resource: port },
  ),
  route(
    'get',
    API_PATHS.vmwareVirtualMachineConsole,
    VM_CONSOLE,
    {
      operationId: `${id}_console_retrieve`,
      summary:
        'A VMRC console URL with no ticket (VMRC asks for your own vCenter account): staff only, 403 otherwise',
      tag,
    },
    { resource: consoleUrl },
  ),
  route(
    'get',
    API_PATHS.vmwareVirtualMachineWebConsole,
    VM_WEB_CONSOLE,
    {
      operationId: `${id}_web_console_retrieve`,
      summary:
        'A WebMKS console URL (wss) with a single-use, short-lived ticket for this VM only; 409 with the reason when the VM is not powered on or vCenter issues no ticket',
      tag,
    },
    { resource: consoleUrl },
  ),
];
