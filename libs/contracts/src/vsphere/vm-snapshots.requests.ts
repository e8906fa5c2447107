import { z } from 'zod';
import { paginationQuery, uuidParams } from '../identity/operation';
import { messages, text } from '../identity/wire-fields';
import { vmUuidField } from './virtual-machine.requests';
import { vsphereOperation } from './vsphere-operation';

const vmParams = z.strictObject({ uuid: vmUuidField() });

/** vCenter takes a snapshot name of up to 80 characters in its client; the API takes any, we keep 80. */
const SNAPSHOT_NAME_MAX = 80;

/**
 * `vsphere.vm.create_snapshot` (`POST /api/vmware-virtual-machine/{uuid}/create_snapshot/`):
 * `memory` only while the VM is powered on and the offering allows memory snapshots, `quiesce` only
 * while VMware Tools run (vCenter would silently ignore either otherwise: refused with the reason
 * instead, 409), at most the offering's `max_snapshots` (409). 202 with the operation; the
 * snapshot appears in the VM's `snapshots` when vCenter made it (VmChanged).
 */
export const VM_CREATE_SNAPSHOT = vsphereOperation('vsphere.vm.create_snapshot', {
  params: vmParams,
  body: z.strictObject({
    name: text(SNAPSHOT_NAME_MAX),
    description: text(1000, { blank: true }).optional(),
    memory: z.boolean({ error: messages.boolean }).optional(),
    quiesce: z.boolean({ error: messages.boolean }).optional(),
  }),
});

/** `vsphere.vm.snapshots` (`GET .../snapshots/`): the VM's snapshot tree, parents before children. */
export const VM_SNAPSHOTS = vsphereOperation('vsphere.vm.snapshots', { params: vmParams });

/** `vsphere.vm.remove_all_snapshots` (`POST .../remove_all_snapshots/`): RemoveAllSnapshots_Task. 202. */
export const VM_REMOVE_ALL_SNAPSHOTS = vsphereOperation('vsphere.vm.remove_all_snapshots', {
  params: vmParams,
});

/** `vsphere.snapshot.list` (`/api/vmware-snapshots/?vm_uuid=`): snapshots of the VMs the caller sees. */
export const SNAPSHOT_LIST = vsphereOperation('vsphere.snapshot.list', {
  query: z.object({ ...paginationQuery, vm_uuid: vmUuidField().optional() }),
});
export const SNAPSHOT_GET = vsphereOperation('vsphere.snapshot.get', { params: uuidParams });

/**
 * `vsphere.snapshot.revert` (`POST /api/vmware-snapshots/{uuid}/revert/`): RevertToSnapshot_Task;
 * the VM's hardware and power state become the snapshot's (off for a snapshot without memory). 202.
 */
export const SNAPSHOT_REVERT = vsphereOperation('vsphere.snapshot.revert', { params: uuidParams });

/** `vsphere.snapshot.delete` (`DELETE /api/vmware-snapshots/{uuid}/`): RemoveSnapshot_Task, children kept. 202. */
export const SNAPSHOT_DELETE = vsphereOperation('vsphere.snapshot.delete', { params: uuidParams });
