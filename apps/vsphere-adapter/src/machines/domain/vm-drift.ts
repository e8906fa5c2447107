import type { ToolsState, VmRuntimeState, VmState } from '@app/contracts';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { planDeviceSync } from './device-reconcile';
import { diskDiffers, portDiffers, type RecordedDisk, type RecordedPort } from './device-differs';
import { snapshotsDrifted, type RecordedSnapshots } from './snapshot-drift';

/** The reason a VM gone from vCenter is ERRED with. */
export const VM_GONE = 'The virtual machine no longer exists in vCenter.';

/** What a read-back or pull records of a VM (vCenter's figures) and the state it leaves it in. */
export interface VmFigures {
  readonly moref: string;
  readonly name: string;
  readonly runtimeState: VmRuntimeState;
  readonly cpu: number;
  readonly coresPerSocket: number;
  readonly ram: number;
  /** Total MiB of its disks. */
  readonly disk: number;
  readonly toolsState: ToolsState;
  readonly toolsInstalled: boolean;
}

/** A VM as recorded, with its disks and adapters: what a pull compares with vCenter's read. */
export interface RecordedVm extends VmFigures {
  readonly rowUuid: string;
  readonly backendUuid: string;
  readonly state: VmState;
  readonly errorMessage: string;
  readonly disks: readonly RecordedDisk[];
  readonly ports: readonly RecordedPort[];
  /** Its snapshot tree as recorded (absent: not compared). */
  readonly snapshots?: RecordedSnapshots;
}

/**
 * Whether recording vCenter's read of the VM (`undefined`: gone from vCenter) would change
 * anything: the same comparison VmRecordService.recordRemote / recordGone and the device
 * reconciler make, so a pull opens a transaction only for the VMs it does. Rows without a device
 * key (being created, or never made by vCenter) are left alone by the reconciler, so they never
 * count. Pure.
 */
export function vmDrifted(
  recorded: RecordedVm,
  remote: RemoteVm | undefined,
  networkUuids: ReadonlyMap<string, string>,
): boolean {
  if (remote === undefined) return recorded.state !== 'ERRED' || recorded.errorMessage !== VM_GONE;
  // recordRemote leaves the VM OK with no message: an ERRED or UPDATING one is a change.
  if (recorded.state !== 'OK' || recorded.errorMessage !== '') return true;
  const totalDisk = remote.disks.reduce((sum, d) => sum + d.sizeMiB, 0);
  if (
    recorded.moref !== remote.moref ||
    recorded.name !== remote.name ||
    recorded.runtimeState !== remote.runtimeState ||
    recorded.cpu !== remote.cpu ||
    recorded.coresPerSocket !== remote.coresPerSocket ||
    recorded.ram !== remote.ram ||
    recorded.disk !== totalDisk ||
    recorded.toolsState !== remote.toolsState ||
    recorded.toolsInstalled !== remote.toolsInstalled
  )
    return true;
  if (recorded.snapshots !== undefined && snapshotsDrifted(recorded.snapshots, remote)) return true;
  return (
    hasWork(planDeviceSync(recorded.disks, remote.disks, diskDiffers)) ||
    hasWork(planDeviceSync(recorded.ports, remote.nics, (row, nic) => portDiffers(row, nic, networkUuids)))
  );
}

function hasWork(plan: {
  update: readonly unknown[];
  insert: readonly unknown[];
  remove: readonly unknown[];
}) {
  return plan.update.length + plan.insert.length + plan.remove.length > 0;
}
