/**
 * The public REST shapes the portal reads, taken from libs/contracts. Type-only imports: they are
 * erased at build, so no contract code (nor zod) reaches the bundle — ESLint refuses any other kind.
 */
import type { CustomerView } from '@app/contracts/identity/customers.request';
import type { UserView } from '@app/contracts/identity/users.request';
import type { ProjectView } from '@app/contracts/identity/projects.request';
import type { OfferingView } from '@app/contracts/marketplace/offerings.request';
import type { OrderState, OrderView, ResourceView } from '@app/contracts/orders/order-views';
import type { AssignmentKind, AssignmentView } from '@app/contracts/vsphere/assignments.request';
import type { IntegrationView, InventoryCounts } from '@app/contracts/vsphere/integration-view';
import type { IntegrationSyncAccepted } from '@app/contracts/vsphere/integration-sync.request';
import type { IntegrationStateChanged } from '@app/contracts/vsphere/integration-state-changed.event';
import type { SyncFinished } from '@app/contracts/vsphere/sync-finished.event';
import type { SyncStarted } from '@app/contracts/vsphere/sync-started.event';
import type { ClusterView, TemplateView } from '@app/contracts/vsphere/inventory-views';
import type {
  DiskView,
  PortView,
  SnapshotView,
  VirtualMachineView,
  VmOperationView,
} from '@app/contracts/vsphere/vm-views';
import type { VmStatsView } from '@app/contracts/vsphere/vm-stats.request';

/** The gateway adds each object's own `url` to the contract's view. */
type Linked<View> = View & { url: string };

export type User = UserView;
export type Project = Linked<ProjectView>;
export type Customer = Linked<CustomerView>;
export type Offering = Linked<OfferingView>;
export type Template = Linked<TemplateView>;
/** Any imported vCenter object offered as a choice: cluster, network, datastore, folder. */
export type Named = Linked<ClusterView>;
export type { OrderState };
export type Order = OrderView;
export type Resource = ResourceView;
export type Disk = DiskView;
export type Port = PortView;
export type Snapshot = SnapshotView;
export type VmStats = VmStatsView;
export type VmOperation = VmOperationView;
/** The VM as its GET shows it; VmChanged adds the operation whose progress made the change. */
export type Vm = VirtualMachineView & { operation?: VmOperation | null };

/** An offering's vCenter connection as the provider sees it: never the password, only `password_set`. */
export type Integration = IntegrationView;
export type { InventoryCounts, SyncStarted, SyncFinished, IntegrationStateChanged };
/** `POST .../sync/` (202): the request recorded; the synchronisation's end arrives as SyncFinished. */
export type SyncAccepted = IntegrationSyncAccepted;
export type Assignment = AssignmentView;
export type { AssignmentKind };
