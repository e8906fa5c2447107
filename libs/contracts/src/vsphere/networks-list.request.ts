import { z } from 'zod';
import { queryBoolean } from '../identity/wire-fields';
import { vsphereOperation } from './vsphere-operation';
import { inventoryListQueryFields } from './inventory-views';

/**
 * `vsphere.networks.list` (`/api/vmware-networks/`): core NATS request-reply, asked by the gateway,
 * answered by the vSphere adapter with RequestReply<Page<NetworkView>>. A customer sees the networks
 * assigned to its organisation for new VMs (none assigned: none, the VM keeps the template's
 * network), or with `for_existing_vms=true` those assigned for adapters of existing VMs. Staff see all.
 */
export const NETWORKS_LIST = vsphereOperation('vsphere.networks.list', {
  query: z.object({
    ...inventoryListQueryFields,
    for_existing_vms: queryBoolean()
      .optional()
      .meta({ description: 'Networks for adapters added to existing VMs instead of new VMs' }),
  }),
});
