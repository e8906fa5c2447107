import type { ProjectRole } from '@app/contracts';
import { SubscriberAccess } from './subscriber-access';
import type { EventScope } from './feed-event';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const scope = (overrides: Partial<EventScope>): EventScope => ({
  projectUuid: uuid(1),
  offeringUuid: uuid(9),
  customerUuid: uuid(2),
  providerUuid: uuid(3),
  public: false,
  ...overrides,
});
// Every project here is customer 2's, as the event scopes' projects are.
const access = (projects: number[], owned: number[], staff = false, role: ProjectRole = 'PROJECT.MEMBER') =>
  SubscriberAccess.from({
    user_uuid: uuid(100),
    is_staff: staff,
    project_grants: projects.map((p) => ({ project_uuid: uuid(p), customer_uuid: uuid(2), roles: [role] })),
    owned_customer_uuids: owned.map(uuid),
  });

describe('SubscriberAccess: the REST rules, checked per event in memory', () => {
  it('staff see everything', () => {
    expect(access([], [], true).canSee(scope({}))).toBe(true);
  });

  it("a project role shows that project's events only, not another project's of the same customer", () => {
    expect(access([1], []).canSee(scope({}))).toBe(true);
    expect(access([5], []).canSee(scope({}))).toBe(false);
    expect(access([5], [], false, 'PROJECT.MANAGER').canSee(scope({}))).toBe(false);
  });

  it('a VM without a project is seen by its customer’s owners and staff, not by project roles', () => {
    const vm = { projectUuid: undefined, customerUuid: uuid(2), providerUuid: uuid(2) };
    expect(access([1], []).canSee(scope(vm))).toBe(false);
    expect(access([], [2]).canSee(scope(vm))).toBe(true);
  });

  it("a customer's owners see its projects' events, and as a provider its offerings' orders", () => {
    expect(access([], [2]).canSee(scope({}))).toBe(true);
    expect(access([], [3]).canSee(scope({}))).toBe(true);
    expect(access([], [4]).canSee(scope({}))).toBe(false);
  });

  it('an Active offering is public; another only for its owners', () => {
    const offering = { projectUuid: undefined, customerUuid: uuid(3), providerUuid: uuid(3) };
    expect(access([], []).canSee(scope({ ...offering, public: true }))).toBe(true);
    expect(access([1], []).canSee(scope(offering))).toBe(false);
    expect(access([], [3]).canSee(scope(offering))).toBe(true);
  });

  it('sync events of an integration never told its customer are seen by staff only', () => {
    const sync = { projectUuid: undefined, customerUuid: '', providerUuid: '' };
    expect(access([], [], true).canSee(scope(sync))).toBe(true);
    expect(access([1], [2, 3]).canSee(scope(sync))).toBe(false);
  });
});
