import type { AssignmentKind } from '../vsphere/assignments.request';
import type { VmAction } from '../vsphere/virtual-machine.requests';

/**
 * The public REST and SSE paths, in the OpenAPI form of the gateway's route table (`{uuid}`): the
 * gateway routes them, clients (`waldur-cli`, the web portal's bundle) fill them with `fillPath`.
 * Plain strings and type-only imports, no schema library: the web portal imports this one module
 * of the contracts as values (eslint.config.mjs allows exactly this one and keeps it import-free).
 */
export const API_PATHS = {
  login: '/api-auth/password/',
  customers: '/api/customers/',
  projects: '/api/projects/',
  users: '/api/users/',
  /** The caller. */
  usersMe: '/api/users/me/',
  providerOfferings: '/api/marketplace-provider-offerings/',
  providerOffering: '/api/marketplace-provider-offerings/{uuid}/',
  publicOfferings: '/api/marketplace-public-offerings/',
  publicOffering: '/api/marketplace-public-offerings/{uuid}/',
  /** The offering's plans, where every plan's `url` points (Waldur's path and parameter names). */
  publicOfferingPlans: '/api/marketplace-public-offerings/{uuid}/plans/',
  publicOfferingPlan: '/api/marketplace-public-offerings/{uuid}/plans/{plan_uuid}/',
  /** An offering's service settings (its `scope`): a vSphere offering's vCenter integration. */
  serviceSettings: '/api/service-settings/{uuid}/',
  plans: '/api/marketplace-plans/',
  plan: '/api/marketplace-plans/{uuid}/',
  orders: '/api/marketplace-orders/',
  order: '/api/marketplace-orders/{uuid}/',
  orderResource: '/api/marketplace-orders/{uuid}/resource/',
  /** SSE: the order's current state, then its changes, ending after a terminal state. */
  orderEvents: '/api/marketplace-orders/{uuid}/events',
  resources: '/api/marketplace-resources/',
  resource: '/api/marketplace-resources/{uuid}/',
  resourceTerminate: '/api/marketplace-resources/{uuid}/terminate/',
  resourceUpdateLimits: '/api/marketplace-resources/{uuid}/update_limits/',
  /** SSE: every change the caller may see, filtered by the query. */
  events: '/api/events',
  vmwareTemplates: '/api/vmware-templates/',
  vmwareTemplate: '/api/vmware-templates/{uuid}/',
  /** One cluster, network, datastore or folder the caller's list of that kind holds. */
  vmwareCluster: '/api/vmware-clusters/{uuid}/',
  vmwareNetwork: '/api/vmware-networks/{uuid}/',
  vmwareDatastore: '/api/vmware-datastores/{uuid}/',
  vmwareFolder: '/api/vmware-folders/{uuid}/',
  vmwareClusters: '/api/vmware-clusters/',
  vmwareNetworks: '/api/vmware-networks/',
  vmwareDatastores: '/api/vmware-datastores/',
  vmwareFolders: '/api/vmware-folders/',
  /** The offering's maximums per VM. */
  vmwareLimits: '/api/vmware-limits/{offering_uuid}/',
  /** The VMs orders made; `PATCH`/`PUT` of one changes its CPU and RAM (202). */
  vmwareVirtualMachines: '/api/vmware-virtual-machine/',
  vmwareVirtualMachine: '/api/vmware-virtual-machine/{uuid}/',
  vmwareVirtualMachineCreateDisk: '/api/vmware-virtual-machine/{uuid}/create_disk/',
  vmwareVirtualMachineCreatePort: '/api/vmware-virtual-machine/{uuid}/create_port/',
  vmwareVirtualMachineConsole: '/api/vmware-virtual-machine/{uuid}/console/',
  vmwareVirtualMachineWebConsole: '/api/vmware-virtual-machine/{uuid}/web_console/',
  vmwareDisks: '/api/vmware-disks/',
  vmwareDisk: '/api/vmware-disks/{uuid}/',
  vmwareDiskExtend: '/api/vmware-disks/{uuid}/extend/',
  vmwarePorts: '/api/vmware-ports/',
  vmwarePort: '/api/vmware-ports/{uuid}/',
  vmwareVirtualMachineCreateSnapshot: '/api/vmware-virtual-machine/{uuid}/create_snapshot/',
  vmwareVirtualMachineSnapshots: '/api/vmware-virtual-machine/{uuid}/snapshots/',
  vmwareVirtualMachineRemoveAllSnapshots: '/api/vmware-virtual-machine/{uuid}/remove_all_snapshots/',
  /** The VM's usage: `?metric=cpu,memory,disk,network&period=hour|day|week`. */
  vmwareVirtualMachineStats: '/api/vmware-virtual-machine/{uuid}/stats/',
  vmwareSnapshots: '/api/vmware-snapshots/',
  vmwareSnapshot: '/api/vmware-snapshots/{uuid}/',
  vmwareSnapshotRevert: '/api/vmware-snapshots/{uuid}/revert/',
} as const;

/** `/api/vmware-virtual-machine/{uuid}/shutdown_guest/`: a VM action taken without a body (202). */
export function vmActionPath(action: VmAction): string {
  return `${API_PATHS.vmwareVirtualMachine}${action}/`;
}

/** The review and completion actions of an order: `POST /api/marketplace-orders/{uuid}/<action>/`. */
export const ORDER_ACTIONS = [
  'approve_by_consumer',
  'reject_by_consumer',
  'approve_by_provider',
  'reject_by_provider',
  'cancel',
  'retry',
  'set_state_done',
  'set_state_erred',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** `/api/marketplace-orders/{uuid}/approve_by_provider/` */
export function orderActionPath(action: OrderAction): string {
  return `${API_PATHS.order}${action}/`;
}

/**
 * What a provider does to an offering: `POST /api/marketplace-provider-offerings/{uuid}/<action>/`
 * (`integration` is the GET of its vCenter integration).
 */
export const PROVIDER_OFFERING_ACTIONS = [
  'activate',
  'pause',
  'archive',
  'update_integration',
  'sync',
  'integration',
] as const;
export type ProviderOfferingAction = (typeof PROVIDER_OFFERING_ACTIONS)[number];

/** `/api/marketplace-provider-offerings/{uuid}/activate/` */
export function providerOfferingActionPath(action: ProviderOfferingAction): string {
  return `${API_PATHS.providerOffering}${action}/`;
}

/**
 * The customer assignments of vCenter objects, by kind (Waldur's CustomerCluster, CustomerNetwork,
 * CustomerNetworkPair, CustomerDatastore, CustomerFolder): list (GET) and assign (POST) at the path,
 * take back at `remove/` (POST). Staff only.
 */
export const VMWARE_ASSIGNMENT_PATHS = {
  clusters: '/api/vmware-customer-clusters/',
  networks: '/api/vmware-customer-networks/',
  'existing-vm-networks': '/api/vmware-customer-network-pairs/',
  datastores: '/api/vmware-customer-datastores/',
  folders: '/api/vmware-customer-folders/',
} as const satisfies Record<AssignmentKind, string>;

/** Fills `{name}` placeholders, each value URI-encoded: `fillPath(API_PATHS.order, { uuid })`. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}
