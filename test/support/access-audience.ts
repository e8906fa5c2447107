import type { AccessAudience, AccessRule } from '@app/contracts';

/** What a role holds, as the world granted it: what decides which audiences it belongs to. */
export interface RoleFacts {
  readonly userUuid: string;
  readonly staff: boolean;
  readonly ownedCustomers: ReadonlySet<string>;
  /** Projects the role holds a role in: the project's customer and the role name. */
  readonly projects: ReadonlyMap<string, { customer: string; role: string }>;
}

/** What a route is about, as far as the audiences ask. */
export interface Subject {
  readonly customer?: string;
  readonly project?: { uuid: string; customer: string };
  /** The offering's customer: the service provider. */
  readonly provider?: string;
  readonly offeringActive?: boolean;
  readonly offeringPaused?: boolean;
  /** The user the route names: where they hold roles. */
  readonly user?: {
    uuid: string;
    customers: readonly string[];
    projects: readonly { uuid: string; customer: string }[];
  };
  /** Who created the order. */
  readonly creator?: string;
  /** The organisations that may use a vCenter object (assigned to them, or their default). */
  readonly users?: readonly string[];
}

function seesCustomer(role: RoleFacts, customer: string): boolean {
  if (role.staff || role.ownedCustomers.has(customer)) return true;
  return [...role.projects.values()].some((grant) => grant.customer === customer);
}

function seesProject(role: RoleFacts, project: { uuid: string; customer: string }): boolean {
  return role.staff || role.ownedCustomers.has(project.customer) || role.projects.has(project.uuid);
}

function projectRoleIn(role: RoleFacts, subject: Subject, names: readonly string[]): boolean {
  const project = need(subject.project, 'project');
  if (role.ownedCustomers.has(project.customer)) return true;
  const grant = role.projects.get(project.uuid);
  return grant !== undefined && names.includes(grant.role);
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the subject names no ${what}`);
  return value;
}

/**
 * Whether a role (null: anonymous) belongs to an audience of the declaration, for this subject: the
 * declaration's words read against the world's grants, independently of the services' code.
 */
export function inAudience(audience: AccessAudience, role: RoleFacts | null, subject: Subject): boolean {
  if (audience === 'anyone') return true;
  if (role === null) return false;
  if (audience === 'catalogue-viewers') return subject.offeringActive === true;
  if (audience === 'signed-in' || role.staff) return true;
  const provider = () => role.ownedCustomers.has(need(subject.provider, 'provider'));
  switch (audience) {
    case 'staff':
      return false;
    case 'self':
      return role.userUuid === need(subject.user, 'user').uuid;
    case 'user-viewers': {
      const user = need(subject.user, 'user');
      return (
        role.userUuid === user.uuid ||
        user.customers.some((customer) => seesCustomer(role, customer)) ||
        user.projects.some((project) => seesProject(role, project))
      );
    }
    case 'customer-members':
      return seesCustomer(role, need(subject.customer, 'customer'));
    case 'customer-owners':
      return role.ownedCustomers.has(need(subject.customer ?? subject.project?.customer, 'customer'));
    case 'project-members':
      return seesProject(role, need(subject.project, 'project'));
    case 'project-managers':
      return projectRoleIn(role, subject, ['PROJECT.MANAGER']);
    case 'project-orderers':
      return projectRoleIn(role, subject, ['PROJECT.MANAGER', 'PROJECT.ADMIN']);
    case 'provider-owners':
      return provider();
    case 'order-viewers':
      return seesProject(role, need(subject.project, 'project')) || provider();
    case 'order-cancellers':
      return projectRoleIn(role, subject, ['PROJECT.MANAGER']) || role.userUuid === subject.creator;
    case 'order-retriers':
      return projectRoleIn(role, subject, ['PROJECT.MANAGER']) || provider();
    case 'resource-terminators':
      return projectRoleIn(role, subject, ['PROJECT.MANAGER', 'PROJECT.ADMIN']) || provider();
    case 'inventory-users':
      return need(subject.users, 'organisations using the object').some((customer) =>
        seesCustomer(role, customer),
      );
    case 'offering-viewers':
      return subject.offeringActive === true || provider();
    case 'inventory-viewers':
      return subject.offeringActive === true || subject.offeringPaused === true || provider();
  }
  return false;
}

/** The answer a role must get: allowed, or the exact refusal. */
export type Expected = { allowed: true } | { allowed: false; status: 400 | 401 | 403 | 404 };

/** The answer the declared rule gives `role` on `subject`: 401, then unseen, then 403, else allowed. */
export function expectedAnswer(rule: AccessRule, role: RoleFacts | null, subject: Subject): Expected {
  if (!inAudience(rule.see, role, subject))
    return { allowed: false, status: role === null ? 401 : rule.unseen };
  if (!inAudience(rule.act, role, subject)) return { allowed: false, status: role === null ? 401 : 403 };
  return { allowed: true };
}
