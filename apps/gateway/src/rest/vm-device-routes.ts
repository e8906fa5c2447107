import {
  API_PATHS,
  DISK_DELETE,
  DISK_EXTEND,
  DISK_GET,
  DISK_LIST,
  PORT_DELETE,
  PORT_GET,
  PORT_LIST,
} from '@app/contracts';
import { apiRoute as route, type AnyOperation, type ApiRoute, type Presenter } from './route';
import { disk, operation, port } from './vm-presenters';

const tag = 'vmware';

function devices<V>(
  collection: { list: string; item: string },
  ops: { list: AnyOperation; get: AnyOperation; delete: AnyOperation },
  resource: Presenter<V>,
  noun: string,
): ApiRoute[] {
  const id = collection.list.split('/')[2].replace(/-/g, '_');
  return [
    route(
      'get',
      collection.list,
      ops.list,
      {
        operationId: `${id}_list`,
        summary: `${noun}s of the VMs the caller sees (\`vm_uuid\` narrows)`,
        tag,
      },
      { resource, list: true },
    ),
    route(
      'get',
      collection.item,
      ops.get,
      { operationId: `${id}_retrieve`, summary: `A ${noun.toLowerCase()}`, tag },
      { resource },
    ),
    // 202 with the operation removing it from vCenter; 204 when vCenter never had it.
    route(
      'delete',
      collection.item,
      ops.delete,
      {
        operationId: `${id}_destroy`,
        summary: `Remove a ${noun.toLowerCase()} from its VM (204 when vCenter never created it)`,
        tag,
        status: 202,
        noContentWhenNull: true,
      },
      { resource: operation },
    ),
  ];
}

/** The disks and network adapters of VMs (Waldur's `vmware-disks`, `vmware-ports`): the adapter answers. */
export const VM_DEVICE_ROUTES: readonly ApiRoute[] = [
  ...devices(
    { list: API_PATHS.vmwareDisks, item: API_PATHS.vmwareDisk },
    { list: DISK_LIST, get: DISK_GET, delete: DISK_DELETE },
    disk,
    'Disk',
  ),
  route(
    'post',
    API_PATHS.vmwareDiskExtend,
    DISK_EXTEND,
    {
      operationId: 'vmware_disks_extend',
      summary: 'Grow a disk (MiB, larger than now), also while the VM runs',
      tag,
      status: 202,
    },
    { resource: operation },
  ),
  ...devices(
    { list: API_PATHS.vmwarePorts, item: API_PATHS.vmwarePort },
    { list: PORT_LIST, get: PORT_GET, delete: PORT_DELETE },
    port,
    'Network adapter',
  ),
];
