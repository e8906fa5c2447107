import { z } from 'zod';
import { vsphereOperation } from './vsphere-operation';
import { inventoryListQueryFields } from './inventory-views';

/**
 * `vsphere.clusters.list` (`/api/vmware-clusters/`): core NATS request-reply, asked by the gateway,
 * answered by the vSphere adapter with RequestReply<Page<ClusterView>>. A customer sees the clusters
 * assigned to its organisation, or, with none assigned, the offering's default cluster (by
 * `default_cluster_label`). Staff see all.
 */
export const CLUSTERS_LIST = vsphereOperation('vsphere.clusters.list', {
  query: z.object(inventoryListQueryFields),
});
