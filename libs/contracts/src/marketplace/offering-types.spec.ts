import { monthlyEstimate, VMWARE_COMPONENTS } from './offering-types';

describe('monthlyEstimate', () => {
  it('prices CPU per vCPU and RAM and disk per GB of MiB limits', () => {
    const prices = { cpu: '5', ram: '2.5', disk: '0.1' };
    // 2 vCPU × 5 + 4 GB × 2.5 + 20 GB × 0.1 = 10 + 10 + 2
    expect(monthlyEstimate(VMWARE_COMPONENTS, prices, { cpu: 2, ram: 4096, disk: 20_480 })).toBe('22.00');
  });

  it('rounds half a cent up and counts part of a GB', () => {
    // 1536 MiB = 1.5 GB × 0.0333 = 0.04995 → 0.05
    expect(monthlyEstimate(VMWARE_COMPONENTS, { ram: '0.0333' }, { ram: 1536 })).toBe('0.05');
  });

  it('costs nothing for missing prices and unknown limits', () => {
    expect(monthlyEstimate(VMWARE_COMPONENTS, {}, { cpu: 8, gpu: 3 })).toBe('0.00');
    expect(monthlyEstimate([], { cpu: '1' }, { cpu: 1 })).toBe('0.00');
  });
});
