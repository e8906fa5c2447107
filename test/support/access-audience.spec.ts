import { ACCESS_RULES } from '@app/contracts';
import { expectedAnswer, inAudience, type RoleFacts, type Subject } from './access-audience';

const ORG = 'org-a';
const P1 = { uuid: 'p1', customer: ORG };
const role = (facts: Partial<RoleFacts>): RoleFacts => ({
  userUuid: 'u',
  staff: false,
  ownedCustomers: new Set(),
  projects: new Map(),
  ...facts,
});
const inP1 = (name: string) => role({ projects: new Map([['p1', { customer: ORG, role: name }]]) });
const inP2 = role({ projects: new Map([['p2', { customer: ORG, role: 'PROJECT.MEMBER' }]]) });
const vm: Subject = { project: P1 };

describe('the access matrix reading of the declaration', () => {
  it('answers a VM action 401, 404, 403 or allowed from who the caller is', () => {
    const act = ACCESS_RULES['vm-act'];
    expect(expectedAnswer(act, null, vm)).toEqual({ allowed: false, status: 401 });
    expect(expectedAnswer(act, inP2, vm)).toEqual({ allowed: false, status: 404 });
    expect(expectedAnswer(act, inP1('PROJECT.MEMBER'), vm)).toEqual({ allowed: false, status: 403 });
    expect(expectedAnswer(act, inP1('PROJECT.ADMIN'), vm)).toEqual({ allowed: true });
    expect(expectedAnswer(act, role({ ownedCustomers: new Set([ORG]) }), vm)).toEqual({ allowed: true });
    expect(expectedAnswer(act, role({ staff: true }), vm)).toEqual({ allowed: true });
  });

  it('answers 400 to a caller who cannot see the customer a creation links', () => {
    const rule = ACCESS_RULES['customer-owner-link'];
    expect(expectedAnswer(rule, role({}), { customer: ORG })).toEqual({ allowed: false, status: 400 });
    expect(expectedAnswer(rule, inP2, { customer: ORG })).toEqual({ allowed: false, status: 403 });
  });

  it("keeps a Draft offering out of everyone's catalogue, staff included, and shows it to its provider", () => {
    const draft: Subject = { provider: 'prov', offeringActive: false };
    expect(inAudience('catalogue-viewers', role({ staff: true }), draft)).toBe(false);
    expect(inAudience('offering-viewers', role({ ownedCustomers: new Set(['prov']) }), draft)).toBe(true);
    expect(inAudience('offering-viewers', inP1('PROJECT.MANAGER'), draft)).toBe(false);
  });

  it("shows a Paused offering's inventory to everyone, as its VMs are still resized, but not its catalogue entry", () => {
    const paused: Subject = { provider: 'prov', offeringActive: false, offeringPaused: true };
    expect(inAudience('inventory-viewers', inP1('PROJECT.MEMBER'), paused)).toBe(true);
    expect(inAudience('offering-viewers', inP1('PROJECT.MEMBER'), paused)).toBe(false);
    expect(inAudience('inventory-viewers', inP1('PROJECT.MEMBER'), { provider: 'prov' })).toBe(false);
  });

  it("lets a P1 member see another P1 member but not a P2 member, who sees only P2's", () => {
    const user: Subject = { user: { uuid: 'target', customers: [], projects: [P1] } };
    expect(inAudience('user-viewers', inP1('PROJECT.MEMBER'), user)).toBe(true);
    expect(inAudience('user-viewers', inP2, user)).toBe(false);
    expect(inAudience('self', role({ userUuid: 'target' }), user)).toBe(true);
  });
});
