import type { ProjectRole, VsphereCaller } from '@app/contracts';
import { visibilityOf, vmAccessRefusal } from './vm-access';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [CUSTOMER, P1, P2] = [uuid(1), uuid(11), uuid(12)];
const caller = (options: {
  staff?: boolean;
  owned?: string[];
  grants?: [string, ProjectRole][];
}): VsphereCaller => ({
  user_uuid: uuid(100),
  is_staff: options.staff ?? false,
  owned_customer_uuids: options.owned ?? [],
  project_grants: (options.grants ?? []).map(([project_uuid, role]) => ({
    project_uuid,
    customer_uuid: CUSTOMER,
    roles: [role],
  })),
});
const vm = { projectUuid: P1, customerUuid: CUSTOMER };
const code = (reply: ReturnType<typeof vmAccessRefusal>) =>
  reply === null ? 'go' : reply.status === 'error' ? reply.code : 'ok';

describe('vmAccessRefusal: the decision every VM route asks', () => {
  it.each([
    ['staff', caller({ staff: true }), 'go', 'go'],
    ['the organisation’s owner', caller({ owned: [CUSTOMER] }), 'go', 'go'],
    ['a P1 manager', caller({ grants: [[P1, 'PROJECT.MANAGER']] }), 'go', 'go'],
    ['a P1 admin', caller({ grants: [[P1, 'PROJECT.ADMIN']] }), 'go', 'go'],
    ['a P1 member', caller({ grants: [[P1, 'PROJECT.MEMBER']] }), 'go', 403],
    ['a P2 manager', caller({ grants: [[P2, 'PROJECT.MANAGER']] }), 404, 404],
    ['a P2 member', caller({ grants: [[P2, 'PROJECT.MEMBER']] }), 404, 404],
    ['nobody', caller({}), 404, 404],
  ])('%s: read → %s, act → %s', (_name, who, read, act) => {
    expect(code(vmAccessRefusal(who, vm, 'read'))).toBe(read);
    expect(code(vmAccessRefusal(who, vm, 'act'))).toBe(act);
  });

  it('answers an unseen VM exactly as a missing one, and a seen one with the reason', () => {
    expect(vmAccessRefusal(caller({ grants: [[P2, 'PROJECT.MEMBER']] }), vm, 'act')).toEqual({
      status: 'error',
      code: 404,
      detail: 'Not found.',
    });
    const refusal = vmAccessRefusal(caller({ grants: [[P1, 'PROJECT.MEMBER']] }), vm, 'act');
    expect(refusal?.status === 'error' && refusal.code).toBe(403);
    expect(refusal?.status === 'error' && refusal.detail).toMatch(/manager or admin of the project/);
  });

  it('leaves a VM without a project to its customer’s owners and staff', () => {
    const orphan = { projectUuid: null, customerUuid: CUSTOMER };
    expect(code(vmAccessRefusal(caller({ grants: [[P1, 'PROJECT.MANAGER']] }), orphan, 'read'))).toBe(404);
    expect(code(vmAccessRefusal(caller({ owned: [CUSTOMER] }), orphan, 'act'))).toBe('go');
  });

  it('lists by project for project roles and by customer for owners', () => {
    expect(visibilityOf(caller({ staff: true }))).toEqual({ all: true });
    expect(visibilityOf(caller({ owned: [CUSTOMER], grants: [[P2, 'PROJECT.MEMBER']] }))).toEqual({
      all: false,
      ownedCustomerUuids: [CUSTOMER],
      projectUuids: [P2],
    });
  });
});
