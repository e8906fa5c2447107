import { limitsAfterObservation, sameLimits } from './observed-limits';

describe('limitsAfterObservation', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  const resource = {
    state: 'OK' as const,
    limits: { cpu: 2, ram: 2048, disk: 10240, gpu: 1 },
    limitsObservedAt: at(10),
  };
  const hardware = { cores: 4, ram: 4096, disk: 11264 };

  it("takes the VM's CPUs, RAM and total disk, keeping the other limits", () => {
    expect(limitsAfterObservation(resource, hardware, at(11))).toEqual({
      cpu: 4,
      ram: 4096,
      disk: 11264,
      gpu: 1,
    });
    expect(limitsAfterObservation({ ...resource, limitsObservedAt: null }, hardware, at(1))).not.toBeNull();
  });

  it('ignores a report no newer than the last one taken (redelivered out of order)', () => {
    expect(limitsAfterObservation(resource, hardware, at(10))).toBeNull();
    expect(limitsAfterObservation(resource, hardware, at(9))).toBeNull();
  });

  it('leaves a resource being created (its OrderDone sets the limits) or terminated alone', () => {
    expect(limitsAfterObservation({ ...resource, state: 'Creating' }, hardware, at(11))).toBeNull();
    expect(limitsAfterObservation({ ...resource, state: 'Terminated' }, hardware, at(11))).toBeNull();
    for (const state of ['Updating', 'Erred', 'Terminating'] as const)
      expect(limitsAfterObservation({ ...resource, state }, hardware, at(11))).not.toBeNull();
  });
});

describe('sameLimits', () => {
  it('compares values key by key, a missing key differing from any value', () => {
    expect(sameLimits({ cpu: 2, ram: 1 }, { ram: 1, cpu: 2 })).toBe(true);
    expect(sameLimits({ cpu: 2 }, { cpu: 2, ram: 1 })).toBe(false);
    expect(sameLimits({ cpu: 2 }, { cpu: 3 })).toBe(false);
  });
});
