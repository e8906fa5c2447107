import type { SnapshotTree } from '@app/vim25';
import { createSnapshotRefusal, findSnapshot, SNAPSHOT_CHAIN_LIMIT } from './snapshot-rules';

const chain = (levels: number): SnapshotTree[] => {
  let children: SnapshotTree[] = [];
  for (let i = levels; i >= 1; i--)
    children = [
      {
        snapshot: { type: 'VirtualMachineSnapshot', value: `snapshot-${i}` },
        name: `s${i}`,
        description: '',
        id: i,
        createTime: '',
        state: 'poweredOff',
        quiesced: false,
        children,
      },
    ];
  return children;
};

describe('the front snapshot rules', () => {
  it('finds a snapshot with its depth in the tree', () => {
    expect(findSnapshot(chain(3), 'snapshot-3')?.depth).toBe(3);
    expect(findSnapshot(chain(3), 'snapshot-9')).toBeUndefined();
  });

  it('refuses a child of the current snapshot only when that one is at the chain limit', () => {
    const at = (n: number) => ({
      currentSnapshot: { type: 'VirtualMachineSnapshot', value: `snapshot-${n}` },
      rootSnapshotList: chain(SNAPSHOT_CHAIN_LIMIT),
    });
    expect(createSnapshotRefusal(at(SNAPSHOT_CHAIN_LIMIT))?.type).toBe('TooManySnapshotLevels');
    // A branch from a lower level is not deeper than the limit.
    expect(createSnapshotRefusal(at(SNAPSHOT_CHAIN_LIMIT - 1))).toBeUndefined();
    expect(createSnapshotRefusal(undefined)).toBeUndefined();
  });
});
