import {
  API_PATHS,
  CUSTOMER_OPERATIONS,
  PROJECT_OPERATIONS,
  CLUSTERS_LIST,
  DATASTORES_LIST,
  FOLDERS_LIST,
  NETWORKS_LIST,
  OPENSTACK_INSTANCE_TYPE,
  OPENSTACK_TENANT_TYPE,
  OPENSTACK_VOLUME_TYPE,
  TEMPLATES_LIST,
  ORDER_OPERATIONS,
  PLAN_OPERATIONS,
  PROVIDER_OFFERING_OPERATIONS,
  PUBLIC_OFFERING_OPERATIONS,
  RESOURCE_OPERATIONS,
  DISK_LIST,
  PORT_LIST,
  SNAPSHOT_LIST,
  VM_LIST,
  type OrderState,
  type ResourceState,
} from '@app/contracts';
import type { z } from 'zod';

/**
 * The objects the generic commands browse: their paths (from libs/contracts), the query schema
 * their `--filter` is checked against (the gateway's own), and the columns a table shows.
 */
export interface Noun {
  label: string;
  listPath: string;
  listQuery: z.ZodObject;
  columns: readonly string[];
  /** For `get` and `wait`; none for what is only listed. */
  itemPath: string;
  /**
   * For `wait`: the SSE event carrying this object, and the filter naming it: by the object's uuid,
   * or by what `scope` reads from the object (one GET first).
   */
  events?: { type: string; filter: string; scope?: (object: Record<string, unknown>) => string };
  /**
   * States it never leaves: a wait whose condition does not hold there stops (exit 5) instead of
   * running into its timeout. An erred order is not among them: `retry` moves it again.
   */
  finalStates?: readonly string[];
  /** Keeps the items of a list that are this noun (a VM is a resource of a VMware offering). */
  keep?: (item: Record<string, unknown>) => boolean;
}

/** Organisations the caller sees; `get` shows their quotas. */
export const CUSTOMER: Noun = {
  label: 'customer',
  listPath: API_PATHS.customers,
  itemPath: `${API_PATHS.customers}{uuid}/`,
  listQuery: CUSTOMER_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'abbreviation', 'email'],
};

/** Projects the caller sees; `get` shows their quotas. */
export const PROJECT: Noun = {
  label: 'project',
  listPath: API_PATHS.projects,
  itemPath: `${API_PATHS.projects}{uuid}/`,
  listQuery: PROJECT_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'customer_name'],
};

export const OFFERING: Noun = {
  label: 'offering',
  listPath: API_PATHS.publicOfferings,
  itemPath: API_PATHS.publicOffering,
  listQuery: PUBLIC_OFFERING_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'type', 'state', 'customer_name'],
  events: { type: 'OfferingChanged', filter: 'offering_uuid' },
};

/** Offerings of the caller's providers, in any state: what providers manage. */
export const PROVIDER_OFFERING: Noun = {
  label: 'provider offering',
  listPath: API_PATHS.providerOfferings,
  itemPath: API_PATHS.providerOffering,
  listQuery: PROVIDER_OFFERING_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'type', 'state', 'customer_name'],
};

export const PLAN: Noun = {
  label: 'plan',
  listPath: API_PATHS.plans,
  itemPath: API_PATHS.plan,
  listQuery: PLAN_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'offering_uuid', 'url'],
};

export const ORDER: Noun = {
  label: 'order',
  listPath: API_PATHS.orders,
  itemPath: API_PATHS.order,
  listQuery: ORDER_OPERATIONS.list.query,
  columns: ['uuid', 'type', 'state', 'offering_name', 'resource_uuid', 'error_message'],
  events: { type: 'OrderStateChanged', filter: 'order_uuid' },
  finalStates: ['done', 'canceled', 'rejected'] satisfies readonly OrderState[],
};

export const RESOURCE: Noun = {
  label: 'resource',
  listPath: API_PATHS.resources,
  itemPath: API_PATHS.resource,
  listQuery: RESOURCE_OPERATIONS.list.query,
  columns: ['uuid', 'name', 'state', 'offering_name', 'resource_uuid'],
  events: { type: 'ResourceStateChanged', filter: 'resource_uuid' },
  finalStates: ['Terminated'] satisfies readonly ResourceState[],
};

/**
 * A vSphere VM an order made (`/api/vmware-virtual-machine/`), by vCenter's instance uuid (its
 * marketplace resource's `resource_uuid`). Its changes stream as VmChanged of its marketplace
 * resource. No final state: an ERRED VM is OK again after its next operation.
 */
export const VM: Noun = {
  label: 'vm',
  listPath: API_PATHS.vmwareVirtualMachines,
  itemPath: API_PATHS.vmwareVirtualMachine,
  listQuery: VM_LIST.query,
  columns: ['uuid', 'name', 'state', 'runtime_state', 'cores', 'ram', 'disk', 'marketplace_resource_uuid'],
  events: {
    type: 'VmChanged',
    filter: 'resource_uuid',
    scope: (vm) => String(vm.marketplace_resource_uuid),
  },
};

/** The disks of the VMs the caller sees (`--filter vm_uuid=` narrows). */
export const DISK: Noun = {
  label: 'disk',
  listPath: API_PATHS.vmwareDisks,
  itemPath: API_PATHS.vmwareDisk,
  listQuery: DISK_LIST.query,
  columns: ['uuid', 'name', 'size', 'state', 'vm_uuid', 'error_message'],
};

/** The network adapters of the VMs the caller sees. */
export const PORT: Noun = {
  label: 'port',
  listPath: API_PATHS.vmwarePorts,
  itemPath: API_PATHS.vmwarePort,
  listQuery: PORT_LIST.query,
  columns: ['uuid', 'name', 'mac_address', 'network_name', 'runtime_state', 'state', 'vm_uuid'],
};

/** The snapshots of the VMs the caller sees (`--filter vm_uuid=` narrows), parents first per VM. */
export const SNAPSHOT: Noun = {
  label: 'snapshot',
  listPath: API_PATHS.vmwareSnapshots,
  itemPath: API_PATHS.vmwareSnapshot,
  listQuery: SNAPSHOT_LIST.query,
  columns: ['uuid', 'name', 'vm_uuid', 'parent_uuid', 'current', 'memory', 'created', 'warnings'],
};

/** A resource of one offering type: what `openstack tenant list` and the like browse. */
const resourceOfType = (label: string, offeringType: string): Noun => ({
  ...RESOURCE,
  label,
  keep: (item) => item.offering_type === offeringType,
});

/** OpenStack tenants, instances and volumes: marketplace resources of the `OpenStack.*` offerings. */
export const OPENSTACK: Record<string, Noun> = {
  tenant: resourceOfType('tenant', OPENSTACK_TENANT_TYPE),
  instance: resourceOfType('instance', OPENSTACK_INSTANCE_TYPE),
  volume: resourceOfType('volume', OPENSTACK_VOLUME_TYPE),
};

const inventory = (
  label: string,
  listPath: string,
  listQuery: z.ZodObject,
  columns: readonly string[],
): Noun => ({
  label,
  listPath,
  itemPath: '',
  listQuery,
  columns: ['uuid', 'name', ...columns, 'offering_uuid'],
});

/** The vSphere inventory an organisation may use, as the adapter reports it (`vmware template list`, ...). */
export const VMWARE_INVENTORY: Record<string, Noun> = {
  template: inventory('template', API_PATHS.vmwareTemplates, TEMPLATES_LIST.query, [
    'os',
    'os_version',
    'cores',
    'ram',
    'disk',
  ]),
  cluster: inventory('cluster', API_PATHS.vmwareClusters, CLUSTERS_LIST.query, []),
  network: inventory('network', API_PATHS.vmwareNetworks, NETWORKS_LIST.query, ['type']),
  datastore: inventory('datastore', API_PATHS.vmwareDatastores, DATASTORES_LIST.query, [
    'type',
    'capacity',
    'free_space',
  ]),
  folder: inventory('folder', API_PATHS.vmwareFolders, FOLDERS_LIST.query, []),
};
