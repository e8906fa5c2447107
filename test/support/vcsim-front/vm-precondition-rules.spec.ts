import type { XmlObject } from '@app/vim25';
import { MAX_NICS_PER_VM, nicChanges, nicCountRefusal, powerTaskRefusal } from './vm-precondition-rules';

const nic = (operation: string, type = 'VirtualVmxnet3'): XmlObject => ({
  operation,
  device: { _type: type, key: '-1' },
});

describe('powerTaskRefusal', () => {
  it.each(['SuspendVM_Task', 'ResetVM_Task'])('refuses %s unless the VM is powered on', (method) => {
    expect(powerTaskRefusal(method, 'poweredOn')).toBeUndefined();
    for (const state of ['poweredOff', 'suspended'] as const)
      expect(powerTaskRefusal(method, state)).toMatchObject({
        type: 'InvalidPowerState',
        fields: { requestedState: 'poweredOn', existingState: state },
      });
  });

  it('leaves the other power tasks to vcsim', () => {
    for (const method of ['PowerOnVM_Task', 'PowerOffVM_Task', 'ReconfigVM_Task'])
      for (const state of ['poweredOn', 'poweredOff', 'suspended'] as const)
        expect(powerTaskRefusal(method, state)).toBeUndefined();
  });
});

describe('nicCountRefusal', () => {
  it('counts the adapters a spec adds and removes, and nothing else', () => {
    const spec = {
      deviceChange: [nic('add'), nic('add', 'VirtualE1000e'), nic('remove'), nic('add', 'VirtualDisk')],
    };
    expect(nicChanges(spec)).toEqual({ added: 2, removed: 1 });
  });

  it(`takes an adapter up to the ${MAX_NICS_PER_VM}th and refuses the next with TooManyDevices`, () => {
    const one = { deviceChange: [nic('add')] };
    expect(nicCountRefusal(one, MAX_NICS_PER_VM - 1)).toBeUndefined();
    expect(nicCountRefusal(one, MAX_NICS_PER_VM)?.type).toBe('TooManyDevices');
  });

  it('refuses two added at nine, takes one swapped at ten, and never judges a spec that adds none', () => {
    expect(nicCountRefusal({ deviceChange: [nic('add'), nic('add')] }, 9)?.type).toBe('TooManyDevices');
    expect(nicCountRefusal({ deviceChange: [nic('remove'), nic('add')] }, 10)).toBeUndefined();
    expect(nicCountRefusal({ deviceChange: [nic('remove')] }, 12)).toBeUndefined();
    expect(nicCountRefusal({ numCPUs: '2' }, 12)).toBeUndefined();
  });
});
