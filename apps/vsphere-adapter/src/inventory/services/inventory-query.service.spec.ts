import type { ProjectRole, VsphereCaller } from '@app/contracts';
import { visibilityOf } from './inventory-query.service';

const [A, B] = ['0f5e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b', '1f5e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b'];
const P = '3f5e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b';
const caller = (
  is_staff: boolean,
  owned: string[],
  grants: [string, string, ProjectRole][] = [],
): VsphereCaller => ({
  user_uuid: '2f5e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b',
  is_staff,
  owned_customer_uuids: owned,
  project_grants: grants.map(([project_uuid, customer_uuid, role]) => ({
    project_uuid,
    customer_uuid,
    roles: [role],
  })),
});

describe('visibilityOf', () => {
  it('lets staff see everything, or one organisation when they ask for it', () => {
    expect(visibilityOf(caller(true, []), undefined)).toEqual({ all: true });
    expect(visibilityOf(caller(true, []), A)).toEqual({ all: false, customerUuids: [A] });
  });

  it("shows an owner the union of their organisations' views, or one of them", () => {
    expect(visibilityOf(caller(false, [A, B]), undefined)).toEqual({ all: false, customerUuids: [A, B] });
    expect(visibilityOf(caller(false, [A, B]), B)).toEqual({ all: false, customerUuids: [B] });
  });

  it('counts a project role as belonging to the project’s organisation', () => {
    const member = caller(false, [], [[P, B, 'PROJECT.MEMBER']]);
    expect(visibilityOf(member, undefined)).toEqual({ all: false, customerUuids: [B] });
    expect(visibilityOf(member, B)).toEqual({ all: false, customerUuids: [B] });
    expect(visibilityOf(member, A)).toEqual({ all: false, customerUuids: [] });
  });

  it('shows nothing of an organisation the caller does not belong to', () => {
    expect(visibilityOf(caller(false, [A]), B)).toEqual({ all: false, customerUuids: [] });
    expect(visibilityOf(caller(false, []), undefined)).toEqual({ all: false, customerUuids: [] });
  });
});
