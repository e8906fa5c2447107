import { VimFault, VimTransportError } from '@app/vim25';
import { VmWatchLost } from '../ports/vm-watch.port';
import { lostOrAsIs, toVmUpdate } from './vim25-vm-watch';

const vm = { type: 'VirtualMachine', value: 'vm-42' };

describe('toVmUpdate', () => {
  it('makes the whole VM of an enter', () => {
    const update = toVmUpdate({
      kind: 'enter',
      obj: vm,
      changeSet: [
        { name: 'name', op: 'assign', val: 'web-1' },
        { name: 'runtime.powerState', op: 'assign', val: 'poweredOff' },
        { name: 'config.hardware.numCPU', op: 'assign', val: '2' },
        { name: 'config.instanceUuid', op: 'assign', val: 'uuid-1' },
        { name: 'config.template', op: 'assign', val: 'false' },
      ],
    });
    expect(update).toMatchObject({
      moref: 'vm-42',
      kind: 'enter',
      remote: { moref: 'vm-42', uuid: 'uuid-1', name: 'web-1', runtimeState: 'POWERED_OFF', cpu: 2 },
    });
  });

  it('gives the figures a modify assigns, as a read of the VM would give them', () => {
    expect(
      toVmUpdate({
        kind: 'modify',
        obj: vm,
        changeSet: [
          { name: 'runtime.powerState', op: 'assign', val: 'poweredOff' },
          { name: 'config.hardware.memoryMB', op: 'assign', val: '4096' },
          { name: 'name', op: 'assign', val: 'web-2' },
          // Unset: Tools not installed, as toRemoteVm reads an absent install type.
          { name: 'config.tools.toolsInstallType', op: 'assign', val: undefined },
        ],
      }),
    ).toEqual({
      moref: 'vm-42',
      kind: 'modify',
      patch: { runtimeState: 'POWERED_OFF', ram: 4096, name: 'web-2', toolsInstalled: false },
    });
  });

  it('gives no figures for a modify of devices, snapshots or an array element, nor for a removal', () => {
    for (const changeSet of [
      [{ name: 'config.hardware.device', op: 'assign', val: [] }],
      [
        { name: 'runtime.powerState', op: 'assign', val: 'poweredOn' },
        { name: 'snapshot', op: 'assign', val: undefined },
      ],
      [{ name: 'config.hardware.device[2000]', op: 'remove', val: undefined }],
      [{ name: 'name', op: 'indirectRemove', val: undefined }],
      [],
    ] as const)
      expect(toVmUpdate({ kind: 'modify', obj: vm, changeSet })).toEqual({ moref: 'vm-42', kind: 'modify' });
  });

  it('names a departed VM without making it, and a template not at all', () => {
    expect(toVmUpdate({ kind: 'leave', obj: vm, changeSet: [] })).toEqual({ moref: 'vm-42', kind: 'leave' });
    expect(
      toVmUpdate({
        kind: 'enter',
        obj: vm,
        changeSet: [{ name: 'config.template', op: 'assign', val: 'true' }],
      }),
    ).toEqual({ moref: 'vm-42', kind: 'enter' });
  });
});

describe('lostOrAsIs', () => {
  it('names a refused version and an ended session, and leaves anything else as it is', () => {
    expect(lostOrAsIs(new VimFault('WaitForUpdatesEx', 'InvalidCollectorVersion', ''))).toMatchObject({
      reason: 'version',
    });
    for (const type of ['NotAuthenticated', 'ManagedObjectNotFound'])
      expect(lostOrAsIs(new VimFault('WaitForUpdatesEx', type, 'gone'))).toBeInstanceOf(VmWatchLost);
    const other = new VimFault('WaitForUpdatesEx', 'RequestCanceled', '');
    expect(lostOrAsIs(other)).toBe(other);
    const dropped = new VimTransportError('WaitForUpdatesEx', 'timeout', 'no answer');
    expect(lostOrAsIs(dropped)).toBe(dropped);
  });
});
