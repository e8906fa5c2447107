import {
  API_PATHS,
  SNAPSHOT_DELETE,
  SNAPSHOT_GET,
  SNAPSHOT_LIST,
  SNAPSHOT_REVERT,
  VM_CREATE_SNAPSHOT,
  VM_REMOVE_ALL_SNAPSHOTS,
  VM_SNAPSHOTS,
} from '@app/contracts';
import { apiRoute as route, type ApiRoute } from './route';
import { operation, snapshot } from './vm-presenters';

const tag = 'vmware';
const vmId = 'vmware_virtual_machine';

/**
 * Snapshots of VMs: a VM's `create_snapshot`, `snapshots` and `remove_all_snapshots`, and
 * `vmware-snapshots` (list, retrieve, revert, delete). Changes are queued behind the VM's other
 * operations (202 with the operation); the vSphere adapter answers.
 */
export const VM_SNAPSHOT_ROUTES: readonly ApiRoute[] = [
  route(
    'post',
    API_PATHS.vmwareVirtualMachineCreateSnapshot,
    VM_CREATE_SNAPSHOT,
    {
      operationId: `${vmId}_create_snapshot`,
      summary:
        "Take a snapshot (memory only while powered on, quiesce only while VMware Tools run, within the offering's maximum count): 409 with the reason otherwise",
      tag,
      status: 202,
      idempotent: true,
    },
    { resource: operation },
  ),
  route(
    'get',
    API_PATHS.vmwareVirtualMachineSnapshots,
    VM_SNAPSHOTS,
    { operationId: `${vmId}_snapshots_retrieve`, summary: "The VM's snapshot tree, parents first", tag },
    { resource: snapshot, list: true },
  ),
  route(
    'post',
    API_PATHS.vmwareVirtualMachineRemoveAllSnapshots,
    VM_REMOVE_ALL_SNAPSHOTS,
    {
      operationId: `${vmId}_remove_all_snapshots`,
      summary: 'Delete every snapshot of the VM (its disks consolidated)',
      tag,
      status: 202,
    },
    { resource: operation },
  ),
  route(
    'get',
    API_PATHS.vmwareSnapshots,
    SNAPSHOT_LIST,
    {
      operationId: 'vmware_snapshots_list',
      summary: 'Snapshots of the VMs the caller sees (`vm_uuid` narrows)',
      tag,
    },
    { resource: snapshot, list: true },
  ),
  route(
    'get',
    API_PATHS.vmwareSnapshot,
    SNAPSHOT_GET,
    { operationId: 'vmware_snapshots_retrieve', summary: 'A snapshot', tag },
    { resource: snapshot },
  ),
  route(
    'post',
    API_PATHS.vmwareSnapshotRevert,
    SNAPSHOT_REVERT,
    {
      operationId: 'vmware_snapshots_revert',
      summary: "Revert the VM to the snapshot: its hardware and power state become the snapshot's",
      tag,
      status: 202,
    },
    { resource: operation },
  ),
  route(
    'delete',
    API_PATHS.vmwareSnapshot,
    SNAPSHOT_DELETE,
    {
      operationId: 'vmware_snapshots_destroy',
      summary: 'Delete the snapshot (its children stay, as vCenter keeps them)',
      tag,
      status: 202,
    },
    { resource: operation },
  ),
];
