import {
  ACT_REFUSAL,
  canActForProvider,
  canActInProject,
  canSeeCustomer,
  canSeeProject,
  customerScope,
  decideInProject,
  projectScope,
  type Principal,
} from './access-policy';
import { contextOfPrincipal, principalOfContext } from '../marketplace/caller-context.request';
import type { ProjectRole } from './role-grants';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [CUSTOMER, OTHER_CUSTOMER, PROVIDER] = [uuid(1), uuid(2), uuid(3)];
const P1 = { uuid: uuid(11), customerUuid: CUSTOMER };
const P2 = { uuid: uuid(12), customerUuid: CUSTOMER };
const Q1 = { uuid: uuid(21), customerUuid: OTHER_CUSTOMER };

function principal(
  options: { staff?: boolean; owned?: string[]; roles?: [string, string, ProjectRole][] } = {},
): Principal {
  const projectRoles = new Map<string, { customerUuid: string; roles: Set<ProjectRole> }>();
  for (const [project, customer, role] of options.roles ?? []) {
    const entry = projectRoles.get(project) ?? { customerUuid: customer, roles: new Set<ProjectRole>() };
    entry.roles.add(role);
    projectRoles.set(project, entry);
  }
  return {
    userUuid: uuid(100),
    isStaff: options.staff ?? false,
    ownedCustomers: new Set(options.owned ?? []),
    projectRoles,
  };
}

const role = (r: ProjectRole, project = P1) =>
  principal({ roles: [[project.uuid, project.customerUuid, r]] });

/** Every role of the matrix, and what each may do in P1 (read, act). */
const ROLES: [string, Principal, 'allow' | 'forbid' | 'hide', 'allow' | 'forbid' | 'hide'][] = [
  ['staff', principal({ staff: true }), 'allow', 'allow'],
  ['owner of the organisation', principal({ owned: [CUSTOMER] }), 'allow', 'allow'],
  ['P1 manager', role('PROJECT.MANAGER'), 'allow', 'allow'],
  ['P1 admin', role('PROJECT.ADMIN'), 'allow', 'allow'],
  ['P1 member', role('PROJECT.MEMBER'), 'allow', 'forbid'],
  ['P2 manager (same organisation)', role('PROJECT.MANAGER', P2), 'hide', 'hide'],
  ['P2 admin (same organisation)', role('PROJECT.ADMIN', P2), 'hide', 'hide'],
  ['P2 member (same organisation)', role('PROJECT.MEMBER', P2), 'hide', 'hide'],
  ['owner of another organisation', principal({ owned: [OTHER_CUSTOMER] }), 'hide', 'hide'],
  ['manager in another organisation', role('PROJECT.MANAGER', Q1), 'hide', 'hide'],
  ['owner of the provider', principal({ owned: [PROVIDER] }), 'hide', 'hide'],
  ['user with no role', principal(), 'hide', 'hide'],
];

describe('the shared access policy: decideInProject for every role', () => {
  it.each(ROLES)('%s: read %s, act %s in P1', (_name, who, read, act) => {
    expect(decideInProject(who, P1, 'read')).toBe(read);
    expect(decideInProject(who, P1, 'act')).toBe(act);
  });

  it('a member who is also an admin of the project acts (roles add up)', () => {
    const both = principal({
      roles: [
        [P1.uuid, CUSTOMER, 'PROJECT.MEMBER'],
        [P1.uuid, CUSTOMER, 'PROJECT.ADMIN'],
      ],
    });
    expect(decideInProject(both, P1, 'act')).toBe('allow');
  });

  it('a role in P1 gives nothing in P2 of the same organisation, but counts as belonging to it', () => {
    const manager = role('PROJECT.MANAGER');
    expect(canSeeProject(manager, P2)).toBe(false);
    expect(canActInProject(manager, P2)).toBe(false);
    expect(canSeeCustomer(manager, CUSTOMER)).toBe(true);
    expect(canSeeCustomer(manager, OTHER_CUSTOMER)).toBe(false);
  });

  it('the provider’s owners act for the provider only', () => {
    expect(canActForProvider(principal({ owned: [PROVIDER] }), PROVIDER)).toBe(true);
    expect(canActForProvider(role('PROJECT.MANAGER'), PROVIDER)).toBe(false);
    expect(canActForProvider(principal({ staff: true }), PROVIDER)).toBe(true);
  });

  it('the 403 names who may act', () => {
    expect(ACT_REFUSAL).toMatch(/owner of the organisation.*manager or admin of the project/);
  });
});

describe('scopes: what a list may hold', () => {
  it('staff: everything', () => {
    expect(projectScope(principal({ staff: true }))).toEqual({ all: true });
    expect(customerScope(principal({ staff: true }))).toEqual({ all: true });
  });

  it('others: owned customers and the projects with a role, and the customers of both', () => {
    const who = principal({ owned: [OTHER_CUSTOMER], roles: [[P1.uuid, CUSTOMER, 'PROJECT.MEMBER']] });
    expect(projectScope(who)).toEqual({
      all: false,
      ownedCustomerUuids: [OTHER_CUSTOMER],
      projectUuids: [P1.uuid],
    });
    expect(customerScope(who)).toEqual({ all: false, customerUuids: [OTHER_CUSTOMER, CUSTOMER] });
  });
});

describe('the caller context on the wire', () => {
  it('carries the principal both ways unchanged', () => {
    const who = principal({
      owned: [OTHER_CUSTOMER],
      roles: [
        [P1.uuid, CUSTOMER, 'PROJECT.MEMBER'],
        [P1.uuid, CUSTOMER, 'PROJECT.ADMIN'],
        [P2.uuid, CUSTOMER, 'PROJECT.MANAGER'],
      ],
    });
    const wire = contextOfPrincipal(who);
    expect(wire.project_grants).toEqual([
      { project_uuid: P1.uuid, customer_uuid: CUSTOMER, roles: ['PROJECT.MEMBER', 'PROJECT.ADMIN'] },
      { project_uuid: P2.uuid, customer_uuid: CUSTOMER, roles: ['PROJECT.MANAGER'] },
    ]);
    expect(principalOfContext(wire)).toEqual(who);
  });
});
