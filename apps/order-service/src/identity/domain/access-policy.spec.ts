import type { ProjectRole } from '@app/contracts';
import {
  canActForProvider,
  canSeeCustomer,
  canSeeProject,
  canSeeUser,
  customerScope,
  decideCustomer,
  decideCustomerCreate,
  decideProject,
  decideProjectCreate,
  decideProjectGrant,
  decideUser,
  decideUserCreate,
  projectScope,
  type Principal,
} from './access-policy';

const A = 'customer-a';
const B = 'customer-b';
const P1 = { uuid: 'project-1', customerUuid: A };
const P2 = { uuid: 'project-2', customerUuid: A };
const Q1 = { uuid: 'project-q', customerUuid: B };

function principal(
  overrides: Partial<Principal> & { roles?: [string, string, ProjectRole][] } = {},
): Principal {
  const projectRoles = new Map<string, { customerUuid: string; roles: Set<ProjectRole> }>();
  for (const [project, customer, role] of overrides.roles ?? []) {
    const entry = projectRoles.get(project) ?? { customerUuid: customer, roles: new Set<ProjectRole>() };
    entry.roles.add(role);
    projectRoles.set(project, entry);
  }
  return { userUuid: 'me', isStaff: false, ownedCustomers: new Set(), projectRoles, ...overrides };
}

const staff = principal({ isStaff: true });
const owner = principal({ ownedCustomers: new Set([A]) });
const manager = principal({ roles: [[P1.uuid, A, 'PROJECT.MANAGER']] });
const member = principal({ roles: [[P1.uuid, A, 'PROJECT.MEMBER']] });
const stranger = principal({ ownedCustomers: new Set([B]) });

describe('access policy', () => {
  it.each([
    ['staff', staff, true, true, true],
    ['owner', owner, true, true, true],
    ['manager', manager, true, true, false],
    ['member', member, true, true, false],
    ['other organisation', stranger, false, false, false],
  ])('%s sees customer A: %s, project 1: %s, project 2: %s', (_name, who, customer, project1, project2) => {
    expect(canSeeCustomer(who, A)).toBe(customer);
    expect(canSeeProject(who, P1)).toBe(project1);
    expect(canSeeProject(who, P2)).toBe(project2);
  });

  it.each([
    ['staff', staff, 'allow', 'allow', 'allow'],
    ['owner', owner, 'allow', 'forbid', 'allow'],
    ['manager', manager, 'forbid', 'forbid', 'forbid'],
    ['member', member, 'forbid', 'forbid', 'forbid'],
    ['other organisation', stranger, 'hide', 'hide', 'hide'],
  ] as const)(
    '%s on customer A: update %s, delete %s, manage roles %s',
    (_name, who, update, remove, roles) => {
      expect(decideCustomer(who, A, 'update')).toBe(update);
      expect(decideCustomer(who, A, 'delete')).toBe(remove);
      expect(decideCustomer(who, A, 'manage-roles')).toBe(roles);
    },
  );

  it.each([
    ['staff', staff, 'allow', 'allow', 'allow'],
    ['owner', owner, 'allow', 'allow', 'allow'],
    ['manager', manager, 'allow', 'forbid', 'forbid'],
    ['member', member, 'forbid', 'forbid', 'forbid'],
    ['other organisation', stranger, 'hide', 'hide', 'hide'],
  ] as const)(
    '%s on project 1: update %s, delete %s, create in A %s',
    (_name, who, update, remove, create) => {
      expect(decideProject(who, P1, 'update')).toBe(update);
      expect(decideProject(who, P1, 'delete')).toBe(remove);
      expect(decideProjectCreate(who, A)).toBe(create === 'forbid' && who === stranger ? 'hide' : create);
    },
  );

  it('a project manager grants admins and members but not managers; a member grants nothing', () => {
    expect(decideProjectGrant(manager, P1, 'PROJECT.MEMBER')).toBe('allow');
    expect(decideProjectGrant(manager, P1, 'PROJECT.ADMIN')).toBe('allow');
    expect(decideProjectGrant(manager, P1, 'PROJECT.MANAGER')).toBe('forbid');
    expect(decideProjectGrant(member, P1, 'PROJECT.MEMBER')).toBe('forbid');
    expect(decideProjectGrant(manager, P2, 'PROJECT.MEMBER')).toBe('hide');
  });

  it('only staff create customers and users', () => {
    expect([decideCustomerCreate(staff), decideCustomerCreate(owner)]).toEqual(['allow', 'forbid']);
    expect([decideUserCreate(staff), decideUserCreate(member)]).toEqual(['allow', 'forbid']);
  });

  it('users are seen by themselves and by whoever sees where they hold roles', () => {
    const projectMember = { uuid: 'u1', customerUuids: [], projects: [P1] };
    const ownerOfB = { uuid: 'u2', customerUuids: [B], projects: [] };
    const loner = { uuid: 'u3', customerUuids: [], projects: [] };
    expect([
      canSeeUser(owner, projectMember),
      canSeeUser(manager, projectMember),
      canSeeUser(stranger, projectMember),
    ]).toEqual([true, true, false]);
    expect([canSeeUser(stranger, ownerOfB), canSeeUser(owner, ownerOfB)]).toEqual([true, false]);
    expect([
      canSeeUser(staff, loner),
      canSeeUser(principal({ userUuid: 'u3' }), loner),
      canSeeUser(owner, loner),
    ]).toEqual([true, true, false]);
  });

  it('a user edits their own profile but not their privileges; only staff delete users', () => {
    const self = { uuid: 'me', customerUuids: [], projects: [P1] };
    expect(decideUser(member, self, 'update')).toBe('allow');
    expect(decideUser(member, self, 'update-privileges')).toBe('forbid');
    expect(decideUser(member, self, 'delete')).toBe('forbid');
    expect(decideUser(owner, { ...self, uuid: 'other' }, 'update')).toBe('forbid');
    expect(decideUser(staff, { ...self, uuid: 'other' }, 'delete')).toBe('allow');
    expect(decideUser(stranger, { ...self, uuid: 'other' }, 'update')).toBe('hide');
  });

  it("a user manages their own password and tokens; staff manage anyone's; an owner no one else's", () => {
    const self = { uuid: 'me', customerUuids: [], projects: [P1] };
    expect(decideUser(member, self, 'credentials')).toBe('allow');
    expect(decideUser(staff, { ...self, uuid: 'other' }, 'credentials')).toBe('allow');
    expect(decideUser(owner, { ...self, uuid: 'other' }, 'credentials')).toBe('forbid');
    expect(decideUser(stranger, { ...self, uuid: 'other' }, 'credentials')).toBe('hide');
  });

  it('the owners of a service provider act for it', () => {
    expect([canActForProvider(owner, A), canActForProvider(manager, A), canActForProvider(staff, B)]).toEqual(
      [true, false, true],
    );
  });

  it('list scopes hold exactly what the predicates accept', () => {
    expect(customerScope(staff)).toEqual({ all: true });
    expect(customerScope(manager)).toEqual({ all: false, customerUuids: [A] });
    expect(projectScope(owner)).toEqual({ all: false, ownedCustomerUuids: [A], projectUuids: [] });
    expect(projectScope(member)).toEqual({ all: false, ownedCustomerUuids: [], projectUuids: [P1.uuid] });
    expect(canSeeProject(member, Q1)).toBe(false);
  });
});
