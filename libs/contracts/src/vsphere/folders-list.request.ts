import { z } from 'zod';
import { vsphereOperation } from './vsphere-operation';
import { inventoryListQueryFields } from './inventory-views';

/**
 * `vsphere.folders.list` (`/api/vmware-folders/`): core NATS request-reply, asked by the gateway,
 * answered by the vSphere adapter with RequestReply<Page<FolderView>>. A customer sees the VM
 * folders assigned to its organisation, or with none assigned the first one vCenter lists. Staff
 * see all.
 */
export const FOLDERS_LIST = vsphereOperation('vsphere.folders.list', {
  query: z.object(inventoryListQueryFields),
});
