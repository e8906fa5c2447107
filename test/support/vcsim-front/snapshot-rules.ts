import type { SnapshotInfo, SnapshotTree } from '@app/vim25';
import type { FrontFault } from './soap-faults';

/** vCenter's deepest snapshot chain (levels from the root snapshot to the newest). */
export const SNAPSHOT_CHAIN_LIMIT = 32;

/** The snapshot and its depth (root = 1) in the tree, if it is there. Pure. */
export function findSnapshot(
  trees: readonly SnapshotTree[],
  moref: string,
  depth = 1,
): { node: SnapshotTree; depth: number } | undefined {
  for (const tree of trees) {
    if (tree.snapshot.value === moref) return { node: tree, depth };
    const below = findSnapshot(tree.children, moref, depth + 1);
    if (below !== undefined) return below;
  }
  return undefined;
}

/**
 * CreateSnapshot_Task on a VM whose current snapshot is already at the chain's last level: the new
 * one would be a child of it, one level too deep, and vCenter refuses it with TooManySnapshotLevels.
 * Pure.
 */
export function createSnapshotRefusal(info: SnapshotInfo | undefined): FrontFault | undefined {
  const current = info?.currentSnapshot;
  if (info === undefined || current === undefined) return undefined;
  const found = findSnapshot(info.rootSnapshotList, current.value);
  if (found === undefined || found.depth < SNAPSHOT_CHAIN_LIMIT) return undefined;
  return {
    type: 'TooManySnapshotLevels',
    message: `The number of levels in the snapshot tree exceeds the supported maximum of ${SNAPSHOT_CHAIN_LIMIT}.`,
  };
}
