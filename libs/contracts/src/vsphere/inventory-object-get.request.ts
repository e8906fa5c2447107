import { uuidParams } from '../identity/operation';
import { vsphereOperation } from './vsphere-operation';

/** The kinds of vCenter object an organisation is assigned, each readable one at a time. */
export const INVENTORY_OBJECT_KINDS = ['clusters', 'networks', 'datastores', 'folders'] as const;
export type InventoryObjectKind = (typeof INVENTORY_OBJECT_KINDS)[number];

/**
 * `vsphere.<kind>.get` (`/api/vmware-clusters|networks|datastores|folders/{uuid}/`, where each
 * object's `url` points, as Waldur's `vmware_<kind>_retrieve`): core NATS request-reply, asked by
 * the gateway with the caller's token, answered by the vSphere adapter with RequestReply of the
 * kind's view. Visible exactly when the caller's own list would hold it (assigned to one of their
 * organisations, or its default; a network also as assigned for existing VMs); 404 otherwise.
 */
export const INVENTORY_OBJECT_GET = {
  clusters: vsphereOperation('vsphere.clusters.get', { params: uuidParams }),
  networks: vsphereOperation('vsphere.networks.get', { params: uuidParams }),
  datastores: vsphereOperation('vsphere.datastores.get', { params: uuidParams }),
  folders: vsphereOperation('vsphere.folders.get', { params: uuidParams }),
} as const satisfies Record<InventoryObjectKind, unknown>;
