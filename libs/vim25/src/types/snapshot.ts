import type { MoRef } from './mo-ref';
import type { VirtualMachinePowerState } from './virtual-machine';

/** vim25 VirtualMachineSnapshotTree (subset): one snapshot and its children. */
export interface SnapshotTree {
  readonly snapshot: MoRef;
  readonly name: string;
  readonly description: string;
  readonly id: number;
  /** ISO time vCenter took it. */
  readonly createTime: string;
  /** The VM's power state in the snapshot: poweredOn when its memory was saved. */
  readonly state: VirtualMachinePowerState;
  readonly quiesced: boolean;
  readonly children: readonly SnapshotTree[];
}

/** vim25 VirtualMachineSnapshotInfo: the VM's `snapshot` property (absent with no snapshots). */
export interface SnapshotInfo {
  readonly currentSnapshot?: MoRef;
  readonly rootSnapshotList: readonly SnapshotTree[];
}
