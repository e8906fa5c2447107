import { monthlyEstimate } from './monthly-estimate';

const offering = {
  components: [
    { type: 'cpu', name: 'CPU', measured_unit: 'vCPU', factor: 1 },
    { type: 'ram', name: 'RAM', measured_unit: 'GB', factor: 1024 },
    { type: 'disk', name: 'Disk', measured_unit: 'GB', factor: 1024 },
  ],
  plans: [
    { uuid: 'p1', url: '', name: 'Default', archived: false, prices: { cpu: '5', ram: '2.5', disk: '0.1' } },
  ],
};

describe("the order form's monthly estimate", () => {
  it('prices each component per billing unit: vCPUs, and RAM and disk per GB from MiB', () => {
    // 2 × 5 + 4 GB × 2.5 + 20 GB × 0.1
    expect(monthlyEstimate(offering, 'p1', { cpu: '2', ram: '4096', disk: '20480' })).toBe('22.00');
  });

  it('counts an empty amount as none and refuses one that is not a number', () => {
    expect(monthlyEstimate(offering, 'p1', { cpu: '1', ram: '', disk: '' })).toBe('5.00');
    expect(monthlyEstimate(offering, 'p1', { cpu: 'x', ram: '1', disk: '1' })).toBeUndefined();
  });

  it('has nothing to say without a known plan', () => {
    expect(monthlyEstimate(offering, 'gone', { cpu: '1' })).toBeUndefined();
  });
});
