import { API_PATHS, VM_STATS } from '@app/contracts';
import { apiRoute as route, type ApiRoute } from './route';
import { stats } from './vm-presenters';

const tag = 'vmware';
const vmId = 'vmware_virtual_machine';

/** A VM's usage statistics from vCenter's PerformanceManager: the vSphere adapter answers. */
export const VM_STATS_ROUTES: readonly ApiRoute[] = [
  route(
    'get',
    API_PATHS.vmwareVirtualMachineStats,
    VM_STATS,
    {
      operationId: `${vmId}_stats_retrieve`,
      summary:
        "The VM's usage from vCenter (`metric`: cpu, memory, disk, network, comma-separated; `period`: hour in 20 s samples, day, week), with units and sample times",
      tag,
    },
    { resource: stats },
  ),
];
