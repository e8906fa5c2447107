import type { ProjectRole } from './role-grants';

/**
 * The rules every service shares on who sees and who acts in a project: the order service decides
 * orders and resources with them, the vSphere adapter its VMs, disks, ports and consoles, and the
 * gateway each SSE event. Pure: a caller resolved from their token (`Principal`) and the object's
 * project in, a decision out. What only one service decides (editing users, granting roles) stays
 * in that service, built on these.
 *
 * Waldur's rules, reduced to the roles this marketplace has: staff sees and does everything; a
 * customer owner sees and manages the customer and all its projects; any project role shows the
 * project (and its customer); ordering, and acting on what was ordered, needs more than looking:
 * the customer's owners or the project's managers and admins. A customer that owns offerings is a
 * service provider, and its owners act for it.
 */
export interface Principal {
  readonly userUuid: string;
  readonly isStaff: boolean;
  /** Customers the user owns (CUSTOMER.OWNER). */
  readonly ownedCustomers: ReadonlySet<string>;
  /** Projects the user holds a role in, each with its customer. */
  readonly projectRoles: ReadonlyMap<
    string,
    { readonly customerUuid: string; readonly roles: ReadonlySet<ProjectRole> }
  >;
}

/** allow → go on; forbid → 403 (may see, may not act); hide → 404 (may not even see). */
export type Decision = 'allow' | 'forbid' | 'hide';

export interface ProjectRef {
  readonly uuid: string;
  readonly customerUuid: string;
}

/** `read`: look (lists, gets); `act`: what ordering needs, and every change to what was ordered. */
export type ProjectWork = 'read' | 'act';

/** The project roles that may order in a project, and act on its resources; members only look. */
export const ACTING_PROJECT_ROLES: readonly ProjectRole[] = ['PROJECT.MANAGER', 'PROJECT.ADMIN'];

/** Why a caller who sees a project may not act in it: the 403's reason. */
export const ACT_REFUSAL =
  'You do not have permission to perform this action: it needs staff, an owner of the organisation, or a manager or admin of the project.';

/** Customers a user belongs to: owned, or holding a role in one of its projects. */
export function canSeeCustomer(principal: Principal, customerUuid: string): boolean {
  if (principal.isStaff || principal.ownedCustomers.has(customerUuid)) return true;
  for (const role of principal.projectRoles.values()) if (role.customerUuid === customerUuid) return true;
  return false;
}

export function canSeeProject(principal: Principal, project: ProjectRef): boolean {
  return (
    principal.isStaff ||
    principal.ownedCustomers.has(project.customerUuid) ||
    principal.projectRoles.has(project.uuid)
  );
}

/** Staff, the organisation's owners and the project's managers and admins: who orders in a project. */
export function canActInProject(principal: Principal, project: ProjectRef): boolean {
  if (principal.isStaff || principal.ownedCustomers.has(project.customerUuid)) return true;
  const roles = principal.projectRoles.get(project.uuid)?.roles;
  return ACTING_PROJECT_ROLES.some((role) => roles?.has(role) ?? false);
}

/** The owners of a service provider act for it (its offerings, its providers' orders). */
export function canActForProvider(principal: Principal, providerCustomerUuid: string): boolean {
  return principal.isStaff || principal.ownedCustomers.has(providerCustomerUuid);
}

/** `hide` when the project is not visible; otherwise `allow`, or `forbid` for `act` without the right. */
export function decideInProject(principal: Principal, project: ProjectRef, work: ProjectWork): Decision {
  if (!canSeeProject(principal, project)) return 'hide';
  return work === 'read' || canActInProject(principal, project) ? 'allow' : 'forbid';
}

/** What a list may hold, for a repository to turn into a WHERE clause. */
export type CustomerScope = { all: true } | { all: false; customerUuids: string[] };
export type ProjectScope =
  { all: true } | { all: false; ownedCustomerUuids: string[]; projectUuids: string[] };

/** The customers `canSeeCustomer` accepts. */
export function customerScope(principal: Principal): CustomerScope {
  if (principal.isStaff) return { all: true };
  const uuids = new Set(principal.ownedCustomers);
  for (const role of principal.projectRoles.values()) uuids.add(role.customerUuid);
  return { all: false, customerUuids: [...uuids] };
}

/** The projects `canSeeProject` accepts: those of owned customers, and those with a role. */
export function projectScope(principal: Principal): ProjectScope {
  if (principal.isStaff) return { all: true };
  return {
    all: false,
    ownedCustomerUuids: [...principal.ownedCustomers],
    projectUuids: [...principal.projectRoles.keys()],
  };
}
