import type { ProjectRole } from '@app/contracts';

/**
 * Who may see and do what: the one place that decides it, for every list, get and action of the
 * order service (and, later, for every SSE event, through the same `canSee*` predicates).
 *
 * Waldur's rules, reduced to the roles this marketplace has: staff sees and does everything; a
 * customer owner sees and manages the customer and all its projects; a project role shows the
 * project and its customer; a project manager edits the project and grants admin and member roles.
 * A customer that owns offerings is a service provider, and its owners act for it.
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

/** Where a user holds roles: what decides whether another user may see them. */
export interface UserRoles {
  readonly uuid: string;
  readonly customerUuids: readonly string[];
  readonly projects: readonly ProjectRef[];
}

export type CustomerAction = 'update' | 'delete' | 'manage-roles';
export type ProjectAction = 'update' | 'delete';
/** `credentials`: change the password, refresh or revoke the tokens. */
export type UserAction = 'update' | 'update-privileges' | 'delete' | 'credentials';

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

/** A user is visible to themselves and to whoever sees a customer or project where they hold a role. */
export function canSeeUser(principal: Principal, target: UserRoles): boolean {
  if (principal.isStaff || principal.userUuid === target.uuid) return true;
  return (
    target.customerUuids.some((customerUuid) => canSeeCustomer(principal, customerUuid)) ||
    target.projects.some((project) => canSeeProject(principal, project))
  );
}

/** The owners of a service provider act for it (its offerings, its providers' orders). */
export function canActForProvider(principal: Principal, providerCustomerUuid: string): boolean {
  return principal.isStaff || principal.ownedCustomers.has(providerCustomerUuid);
}

function decide(visible: boolean, allowed: boolean): Decision {
  if (!visible) return 'hide';
  return allowed ? 'allow' : 'forbid';
}

export function decideCustomerCreate(principal: Principal): Decision {
  return principal.isStaff ? 'allow' : 'forbid';
}

export function decideCustomer(principal: Principal, customerUuid: string, action: CustomerAction): Decision {
  const owner = principal.isStaff || principal.ownedCustomers.has(customerUuid);
  return decide(canSeeCustomer(principal, customerUuid), action === 'delete' ? principal.isStaff : owner);
}

/** Creating a project in a customer the caller cannot see is answered as a bad `customer` link, as Waldur does. */
export function decideProjectCreate(principal: Principal, customerUuid: string): Decision {
  return decide(
    canSeeCustomer(principal, customerUuid),
    principal.isStaff || principal.ownedCustomers.has(customerUuid),
  );
}

export function decideProject(principal: Principal, project: ProjectRef, action: ProjectAction): Decision {
  const owner = principal.isStaff || principal.ownedCustomers.has(project.customerUuid);
  const manager = principal.projectRoles.get(project.uuid)?.roles.has('PROJECT.MANAGER') ?? false;
  return decide(canSeeProject(principal, project), action === 'update' ? owner || manager : owner);
}

/** Owners grant any project role; a project manager grants and revokes admins and members only. */
export function decideProjectGrant(principal: Principal, project: ProjectRef, role: ProjectRole): Decision {
  const owner = principal.isStaff || principal.ownedCustomers.has(project.customerUuid);
  const manager = principal.projectRoles.get(project.uuid)?.roles.has('PROJECT.MANAGER') ?? false;
  return decide(canSeeProject(principal, project), owner || (manager && role !== 'PROJECT.MANAGER'));
}

export function decideUserCreate(principal: Principal): Decision {
  return principal.isStaff ? 'allow' : 'forbid';
}

/**
 * Users edit their own profile and credentials; only staff change `is_staff` / `is_active`, delete
 * anyone, or set another user's password and tokens.
 */
export function decideUser(principal: Principal, target: UserRoles, action: UserAction): Decision {
  const self = principal.userUuid === target.uuid;
  const allowed = principal.isStaff || ((action === 'update' || action === 'credentials') && self);
  return decide(canSeeUser(principal, target), allowed);
}

/** What a list may hold, for the repositories to turn into a WHERE clause. */
export type CustomerScope = { all: true } | { all: false; customerUuids: string[] };
export type ProjectScope =
  { all: true } | { all: false; ownedCustomerUuids: string[]; projectUuids: string[] };
export type UserScope =
  { all: true } | { all: false; self: string; customers: CustomerScope; projects: ProjectScope };

/** The customers `canSeeCustomer` accepts. */
export function customerScope(principal: Principal): CustomerScope {
  if (principal.isStaff) return { all: true };
  const uuids = new Set(principal.ownedCustomers);
  for (const role of principal.projectRoles.values()) uuids.add(role.customerUuid);
  return { all: false, customerUuids: [...uuids] };
}

/** The projects `canSeeProject` accepts. */
export function projectScope(principal: Principal): ProjectScope {
  if (principal.isStaff) return { all: true };
  return {
    all: false,
    ownedCustomerUuids: [...principal.ownedCustomers],
    projectUuids: [...principal.projectRoles.keys()],
  };
}

/** The users `canSeeUser` accepts. */
export function userScope(principal: Principal): UserScope {
  if (principal.isStaff) return { all: true };
  return {
    all: false,
    self: principal.userUuid,
    customers: customerScope(principal),
    projects: projectScope(principal),
  };
}
