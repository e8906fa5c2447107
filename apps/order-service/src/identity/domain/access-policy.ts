import {
  canSeeCustomer,
  canSeeProject,
  customerScope,
  projectScope,
  type CustomerScope,
  type Decision,
  type Principal,
  type ProjectRef,
  type ProjectRole,
  type ProjectScope,
} from '@app/contracts';

/**
 * Who may see and do what in the order service: the decisions only it takes (customers, projects,
 * users, role grants), built on the shared rules of `libs/contracts/src/identity/access-policy.ts`
 * (visibility of customers and projects, who acts in a project or for a provider), which the
 * vSphere adapter and the gateway's SSE ask too. Re-exported here so the order service has one
 * place to import its policy from.
 */
export {
  canActForProvider,
  canActInProject,
  canSeeCustomer,
  canSeeProject,
  customerScope,
  decideInProject,
  projectScope,
  type CustomerScope,
  type Decision,
  type Principal,
  type ProjectRef,
  type ProjectScope,
} from '@app/contracts';

/** Where a user holds roles: what decides whether another user may see them. */
export interface UserRoles {
  readonly uuid: string;
  readonly customerUuids: readonly string[];
  readonly projects: readonly ProjectRef[];
}

/** `set-quotas`: staff on an organisation, its owners on a project (Waldur's rule). */
export type CustomerAction = 'update' | 'delete' | 'manage-roles' | 'set-quotas';
export type ProjectAction = 'update' | 'delete' | 'set-quotas';
/** `credentials`: change the password, refresh or revoke the tokens. */
export type UserAction = 'update' | 'update-privileges' | 'delete' | 'credentials';

/** A user is visible to themselves and to whoever sees a customer or project where they hold a role. */
export function canSeeUser(principal: Principal, target: UserRoles): boolean {
  if (principal.isStaff || principal.userUuid === target.uuid) return true;
  return (
    target.customerUuids.some((customerUuid) => canSeeCustomer(principal, customerUuid)) ||
    target.projects.some((project) => canSeeProject(principal, project))
  );
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
  return decide(
    canSeeCustomer(principal, customerUuid),
    action === 'delete' || action === 'set-quotas' ? principal.isStaff : owner,
  );
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

/** The users a list may hold, for the repository to turn into a WHERE clause. */
export type UserScope =
  { all: true } | { all: false; self: string; customers: CustomerScope; projects: ProjectScope };

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
