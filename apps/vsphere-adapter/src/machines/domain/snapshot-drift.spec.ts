import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { snapshotLines, snapshotsDrifted } from './snapshot-drift';

const remote = (over: Partial<RemoteVm> = {}): RemoteVm => ({
  moref: 'vm-1',
  uuid: 'u',
  name: 'n',
  annotation: '',
  runtimeState: 'POWERED_ON',
  cpu: 1,
  coresPerSocket: 1,
  ram: 1024,
  disks: [],
  nics: [],
  toolsState: 'NOT_RUNNING',
  toolsInstalled: false,
  snapshots: [
    {
      moref: 's1',
      parent: null,
      name: 'a',
      description: '',
      created: '2026-12-01T10:00:00.123Z',
      memory: false,
      quiesced: false,
    },
  ],
  currentSnapshot: 's1',
  consolidationNeeded: false,
  ...over,
});

describe('snapshot drift', () => {
  const recorded = { lines: snapshotLines(remote()), consolidationNeeded: false };

  it('finds nothing when vCenter shows the recorded tree', () => {
    expect(snapshotsDrifted(recorded, remote())).toBe(false);
  });

  it('finds a snapshot taken or removed in vCenter, a renamed one, another current one, consolidation', () => {
    const taken = remote().snapshots!.concat({
      moref: 's2',
      parent: 's1',
      name: 'b',
      description: '',
      created: '2026-12-01T11:00:00Z',
      memory: false,
      quiesced: false,
    });
    expect(snapshotsDrifted(recorded, remote({ snapshots: taken, currentSnapshot: 's2' }))).toBe(true);
    expect(snapshotsDrifted(recorded, remote({ snapshots: [], currentSnapshot: null }))).toBe(true);
    expect(
      snapshotsDrifted(recorded, remote({ snapshots: [{ ...remote().snapshots![0], name: 'z' }] })),
    ).toBe(true);
    expect(snapshotsDrifted(recorded, remote({ currentSnapshot: null }))).toBe(true);
    expect(snapshotsDrifted(recorded, remote({ consolidationNeeded: true }))).toBe(true);
  });

  it('changes nothing for a read without the tree', () => {
    expect(snapshotsDrifted(recorded, remote({ snapshots: undefined }))).toBe(false);
  });
});
