import {
  centsOf,
  growthOf,
  NOTHING,
  projectLimitRefusal,
  quotaBreach,
  quotaRefusal,
  quotaViews,
} from './quota-rules';

describe('quota rules', () => {
  it('counts a new VM as its size and one VM, and an update as its growth only', () => {
    expect(growthOf(null, { cpu: 4, ram: 4096, disk: 10240 })).toEqual({
      vcpu: 4,
      ram: 4096,
      storage: 10240,
      max_instances: 1,
      cost: 0,
    });
    expect(growthOf({ cpu: 2, ram: 4096, disk: 100 }, { cpu: 6, ram: 2048, disk: 100 })).toEqual({
      vcpu: 4,
      ram: 0,
      storage: 0,
      max_instances: 0,
      cost: 0,
    });
  });

  it('refuses with the quota, its limit, the usage and the request', () => {
    const usage = { ...NOTHING, vcpu: 14 };
    expect(quotaRefusal([{ label: 'Project', limits: { vcpu: 16 }, usage }], { ...NOTHING, vcpu: 4 })).toBe(
      'Project quota for vCPU is 16; 14 are in use or ordered; this order asks for 4.',
    );
  });

  it("names the quota a VM's own request would pass, worded for a request", () => {
    const usage = { ...NOTHING, storage: 8192 };
    const scopes = [{ label: 'Organisation' as const, limits: { storage: 10240 }, usage }];
    expect(quotaBreach(scopes, { ...NOTHING, storage: 4096 }, 'request')).toEqual({
      quota: 'storage',
      message:
        'Organisation quota for storage (MiB) is 10240; 8192 are in use or ordered; this request asks for 4096.',
    });
    expect(quotaBreach(scopes, { ...NOTHING, storage: 2048 }, 'request')).toBeNull();
  });

  it('admits an order that fills a quota exactly, and checks the organisation after the project', () => {
    const asks = { ...NOTHING, ram: 2048, max_instances: 1 };
    const project = { label: 'Project' as const, limits: { ram: 4096 }, usage: { ...NOTHING, ram: 2048 } };
    expect(quotaRefusal([project], asks)).toBeNull();
    const organisation = {
      label: 'Organisation' as const,
      limits: { max_instances: 3 },
      usage: { ...NOTHING, max_instances: 3 },
    };
    expect(quotaRefusal([project, organisation], asks)).toBe(
      'Organisation quota for VMs is 3; 3 are in use or ordered; this order asks for 1.',
    );
  });

  it('lets a shrink through a quota already exceeded, and refuses any growth past it', () => {
    const over = { label: 'Project' as const, limits: { vcpu: 2 }, usage: { ...NOTHING, vcpu: 8 } };
    expect(quotaRefusal([over], growthOf({ cpu: 4 }, { cpu: 2 }))).toBeNull();
    expect(quotaRefusal([over], growthOf({ cpu: 4 }, { cpu: 5 }))).toBe(
      'Project quota for vCPU is 2; 8 are in use or ordered; this order asks for 1.',
    );
  });

  it("keeps a project's limit within its organisation's", () => {
    expect(projectLimitRefusal('vcpu', 8, { vcpu: 16 })).toBeNull();
    expect(projectLimitRefusal('vcpu', 8, {})).toBeNull();
    expect(projectLimitRefusal('vcpu', 17, { vcpu: 16 })).toBe(
      "A project quota for vCPU cannot be above the organisation's (16).",
    );
    expect(projectLimitRefusal('ram', -1, { ram: 1024 })).toBe(
      "The organisation's quota for RAM (MiB) is 1024: a project quota cannot be unlimited.",
    );
  });

  it('counts the monthly cost in cents: what a Create costs, what an Update adds', () => {
    expect(growthOf(null, { cpu: 1 }, { before: null, after: '22.50' }).cost).toBe(2250);
    expect(growthOf({ cpu: 1 }, { cpu: 2 }, { before: '22.50', after: '30.05' }).cost).toBe(755);
    expect(growthOf({ cpu: 2 }, { cpu: 1 }, { before: '30.05', after: '22.50' }).cost).toBe(0);
    expect(centsOf('0.5')).toBe(50);
    expect(centsOf(null)).toBe(0);
  });

  it('refuses a cost past its quota with the amounts in currency units', () => {
    const scope = {
      label: 'Organisation' as const,
      limits: { cost: 100 },
      usage: { ...NOTHING, cost: 8050 },
    };
    expect(quotaRefusal([scope], { ...NOTHING, cost: 1950 })).toBeNull();
    expect(quotaRefusal([scope], { ...NOTHING, cost: 1951 })).toBe(
      'Organisation quota for monthly cost is 100; 80.50 are in use or ordered; this order asks for 19.51.',
    );
    expect(quotaViews({ cost: 100 }, { ...NOTHING, cost: 8050 })[4]).toEqual({
      name: 'cost',
      limit: 100,
      usage: 80.5,
    });
  });

  it('lists every quota, unlimited ones as -1', () => {
    expect(quotaViews({ vcpu: 4 }, { ...NOTHING, vcpu: 2 })).toEqual([
      { name: 'vcpu', limit: 4, usage: 2 },
      { name: 'ram', limit: -1, usage: 0 },
      { name: 'storage', limit: -1, usage: 0 },
      { name: 'max_instances', limit: -1, usage: 0 },
      { name: 'cost', limit: -1, usage: 0 },
    ]);
  });
});
