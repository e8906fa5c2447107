import { z } from 'zod';
import { paginationQuery, uuidParams } from '../identity/operation';
import { sizeMiB, vmUuidField } from './virtual-machine.requests';
import { vsphereOperation } from './vsphere-operation';

const deviceQuery = z.object({ ...paginationQuery, vm_uuid: vmUuidField().optional() });

/** `vsphere.disk.list` (`/api/vmware-disks/?vm_uuid=`): the disks of the VMs the caller sees. */
export const DISK_LIST = vsphereOperation('vsphere.disk.list', { query: deviceQuery });
export const DISK_GET = vsphereOperation('vsphere.disk.get', { params: uuidParams });

/**
 * `vsphere.disk.extend` (`POST /api/vmware-disks/{uuid}/extend/`, body `{size}` MiB): larger than
 * now ("Disk size should be greater than <size>"), within the limits; allowed while the VM runs.
 * 202 with the operation.
 */
export const DISK_EXTEND = vsphereOperation('vsphere.disk.extend', {
  params: uuidParams,
  body: z.strictObject({ size: sizeMiB() }),
});

/**
 * `vsphere.disk.delete` (`DELETE /api/vmware-disks/{uuid}/`): 202 with the operation that removes
 * it from the VM and deletes its file; a disk vCenter never created (no `backend_id`) is removed at
 * once (204).
 */
export const DISK_DELETE = vsphereOperation('vsphere.disk.delete', { params: uuidParams });

/** `vsphere.port.list|get|delete` (`/api/vmware-ports/`): as for disks. */
export const PORT_LIST = vsphereOperation('vsphere.port.list', { query: deviceQuery });
export const PORT_GET = vsphereOperation('vsphere.port.get', { params: uuidParams });
export const PORT_DELETE = vsphereOperation('vsphere.port.delete', { params: uuidParams });
