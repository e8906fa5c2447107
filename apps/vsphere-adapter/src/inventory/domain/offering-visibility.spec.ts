import { canSeeOfferingInventory } from './offering-visibility';

const PROVIDER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

describe("who sees an offering's inventory", () => {
  it.each([
    ['staff, a Draft', true, [], 'Draft', true],
    ["the provider's owner, a Draft", false, [PROVIDER], 'Draft', true],
    ['another organisation, a Draft', false, [OTHER], 'Draft', false],
    ['anyone, an Active offering', false, [], 'Active', true],
    ['anyone, a Paused offering', false, [], 'Paused', true],
    ['another organisation, an Archived offering', false, [OTHER], 'Archived', false],
    ['another organisation, a state not yet known', false, [OTHER], null, false],
    ["the provider's owner, a state not yet known", false, [PROVIDER], null, true],
  ] as const)('%s: %s', (_name, isStaff, owned, state, visible) => {
    expect(canSeeOfferingInventory(isStaff, owned, { customerUuid: PROVIDER, state })).toBe(visible);
  });

  it('an offering whose provider is not known yet is staff-only until it is public', () => {
    expect(canSeeOfferingInventory(false, [PROVIDER], { customerUuid: null, state: 'Draft' })).toBe(false);
    expect(canSeeOfferingInventory(false, [], { customerUuid: null, state: 'Active' })).toBe(true);
  });
});
