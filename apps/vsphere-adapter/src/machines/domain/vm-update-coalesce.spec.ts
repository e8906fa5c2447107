import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { coalesceUpdates, withDeferred } from './vm-update-coalesce';

const remote = (moref: string, overrides: Partial<RemoteVm> = {}): RemoteVm => ({
  moref,
  uuid: `uuid-${moref}`,
  name: moref,
  annotation: '',
  runtimeState: 'POWERED_ON',
  cpu: 1,
  coresPerSocket: 1,
  ram: 1024,
  disks: [],
  nics: [],
  toolsState: 'RUNNING',
  toolsInstalled: true,
  ...overrides,
});

describe('coalesceUpdates', () => {
  it('names each VM once, in the order vCenter first named it', () => {
    expect(
      coalesceUpdates([
        { moref: 'vm-2', kind: 'modify' },
        { moref: 'vm-1', kind: 'modify' },
        { moref: 'vm-2', kind: 'modify' },
        { moref: 'vm-3', kind: 'leave' },
        { moref: 'vm-1', kind: 'leave' },
      ]).map((c) => c.moref),
    ).toEqual(['vm-2', 'vm-1', 'vm-3']);
  });

  it('merges the figures of successive modifies, the later winning', () => {
    expect(
      coalesceUpdates([
        { moref: 'vm-1', kind: 'modify', patch: { runtimeState: 'POWERED_OFF', name: 'a' } },
        { moref: 'vm-1', kind: 'modify', patch: { runtimeState: 'POWERED_ON', cpu: 4 } },
      ]),
    ).toEqual([{ moref: 'vm-1', kind: 'patch', patch: { runtimeState: 'POWERED_ON', name: 'a', cpu: 4 } }]);
  });

  it('merges figures into a VM that entered whole', () => {
    expect(
      coalesceUpdates([
        { moref: 'vm-1', kind: 'enter', remote: remote('vm-1') },
        { moref: 'vm-1', kind: 'modify', patch: { runtimeState: 'POWERED_OFF' } },
      ]),
    ).toEqual([{ moref: 'vm-1', kind: 'whole', remote: remote('vm-1', { runtimeState: 'POWERED_OFF' }) }]);
  });

  it('reads a VM once any of its changes is not carried whole, whatever follows', () => {
    expect(
      coalesceUpdates([
        { moref: 'vm-1', kind: 'modify', patch: { name: 'a' } },
        { moref: 'vm-1', kind: 'modify' },
        { moref: 'vm-1', kind: 'modify', patch: { name: 'b' } },
        { moref: 'vm-2', kind: 'enter' },
      ]),
    ).toEqual([
      { moref: 'vm-1', kind: 'read' },
      { moref: 'vm-2', kind: 'read' },
    ]);
  });

  it('takes the last of a leave and an enter', () => {
    expect(
      coalesceUpdates([
        { moref: 'vm-1', kind: 'modify', patch: { name: 'a' } },
        { moref: 'vm-1', kind: 'leave' },
        { moref: 'vm-2', kind: 'leave' },
        { moref: 'vm-2', kind: 'enter', remote: remote('vm-2') },
      ]),
    ).toEqual([
      { moref: 'vm-1', kind: 'gone' },
      { moref: 'vm-2', kind: 'whole', remote: remote('vm-2') },
    ]);
  });
});

describe('VMs left while an operation of theirs ran', () => {
  it('are read with the next answer, after what it carries, unless it names them already', () => {
    const changes = [
      { moref: 'vm-1', kind: 'patch', patch: { name: 'a' } },
      { moref: 'vm-2', kind: 'gone' },
    ] as const;
    expect(withDeferred(changes, new Set(['vm-2', 'vm-3']))).toEqual([
      ...changes,
      { moref: 'vm-3', kind: 'read' },
    ]);
  });

  it('make an empty answer (an idle heartbeat) a read of them', () => {
    expect(withDeferred([], new Set(['vm-3']))).toEqual([{ moref: 'vm-3', kind: 'read' }]);
    expect(withDeferred([], new Set())).toEqual([]);
  });
});
