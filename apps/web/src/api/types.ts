/**
 * The public REST shapes the portal reads, taken from libs/contracts. Type-only imports: they are
 * erased at build, so no contract code (nor zod) reaches the bundle — ESLint refuses any other kind.
 */
import type { UserView } from '@app/contracts/identity/users.request';
import type { ProjectView } from '@app/contracts/identity/projects.request';
import type { OfferingView } from '@app/contracts/marketplace/offerings.request';
import type { OrderState, OrderView, ResourceView } from '@app/contracts/orders/order-views';
import type { ClusterView, TemplateView } from '@app/contracts/vsphere/inventory-views';
import type {
  DiskView,
  PortView,
  VirtualMachineView,
  VmOperationView,
} from '@app/contracts/vsphere/vm-views';

/** The gateway adds each object's own `url` to the contract's view. */
type Linked<View> = View & { url: string };

export type User = UserView;
export type Project = Linked<ProjectView>;
export type Offering = Linked<OfferingView>;
export type Template = Linked<TemplateView>;
/** Any imported vCenter object offered as a choice: cluster, network, datastore, folder. */
export type Named = Linked<ClusterView>;
export type { OrderState };
export type Order = OrderView;
export type Resource = ResourceView;
export type Disk = DiskView;
export type Port = PortView;
export type VmOperation = VmOperationView;
/** The VM as its GET shows it; VmChanged adds the operation whose progress made the change. */
export type Vm = VirtualMachineView & { operation?: VmOperation | null };

/** Waldur's terminal order states (the contract's constant lives beside zod, so it is not imported). */
export const TERMINAL_STATES: readonly OrderState[] = ['done', 'erred', 'canceled', 'rejected'];
