import { toSnapshotInfo } from './snapshot-tree';

const ref = (value: string) => ({ type: 'VirtualMachineSnapshot', value });

describe('the snapshot tree of a VM', () => {
  it('maps the decoded VirtualMachineSnapshotInfo: one child (not an array) and several, untyped leaves as strings', () => {
    const info = toSnapshotInfo({
      _type: 'VirtualMachineSnapshotInfo',
      currentSnapshot: ref('snapshot-3'),
      rootSnapshotList: {
        _type: 'VirtualMachineSnapshotTree',
        snapshot: ref('snapshot-1'),
        vm: { type: 'VirtualMachine', value: 'vm-42' },
        name: 'root',
        description: 'first',
        id: '1',
        createTime: '2026-12-01T10:00:00.5Z',
        state: 'poweredOn',
        quiesced: 'false',
        childSnapshotList: [
          { snapshot: ref('snapshot-2'), name: 'a', id: '2', state: 'poweredOff', quiesced: 'true' },
          { snapshot: ref('snapshot-3'), name: 'b', id: '3', state: 'poweredOff', quiesced: 'false' },
        ],
      },
    });
    expect(info?.currentSnapshot).toEqual(ref('snapshot-3'));
    expect(info?.rootSnapshotList).toHaveLength(1);
    const [root] = info!.rootSnapshotList;
    expect(root).toMatchObject({
      name: 'root',
      description: 'first',
      id: 1,
      state: 'poweredOn',
      quiesced: false,
    });
    expect(root.children.map((c) => [c.snapshot.value, c.quiesced])).toEqual([
      ['snapshot-2', true],
      ['snapshot-3', false],
    ]);
  });

  it('reads no snapshot property as no tree', () => {
    expect(toSnapshotInfo(undefined)).toBeUndefined();
  });
});
