import { z } from 'zod';
import { vsphereOperation } from './vsphere-operation';
import { inventoryListQueryFields } from './inventory-views';

/**
 * `vsphere.datastores.list` (`/api/vmware-datastores/`): core NATS request-reply, asked by the
 * gateway, answered by the vSphere adapter with RequestReply<Page<DatastoreView>>. A customer sees
 * the datastores assigned to its organisation, or with none assigned the first one vCenter lists.
 * Staff see all.
 */
export const DATASTORES_LIST = vsphereOperation('vsphere.datastores.list', {
  query: z.object(inventoryListQueryFields),
});
