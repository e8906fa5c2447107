import {
  asNumber,
  asString,
  readVirtualMachine,
  reconfigureHardware,
  retrieveObject,
  runTask,
  vmObject,
  type MoRef,
  type VimContext,
} from '@app/vim25';
import { findSnapshot } from './snapshot-rules';

/** What a VM goes back to on a revert: the snapshot's hardware and its power state. */
export interface SnapshotRestore {
  readonly numCPU?: number;
  readonly numCoresPerSocket?: number;
  readonly memoryMB?: number;
  readonly powerState: 'poweredOn' | 'poweredOff' | 'suspended';
}

/** The VM a VirtualMachineSnapshot belongs to (its `vm`); undefined when vcsim does not know it. */
export async function vmOfSnapshot(ctx: VimContext, snapshot: MoRef): Promise<MoRef | undefined> {
  try {
    const o = await retrieveObject(ctx.caller, ctx.content.propertyCollector, snapshot, ['vm']);
    const vm = o?.props.get('vm');
    const value =
      typeof vm === 'object' && vm !== null && !Array.isArray(vm)
        ? asString((vm as { value?: string }).value)
        : undefined;
    return value === undefined ? undefined : { type: 'VirtualMachine', value };
  } catch {
    return undefined;
  }
}

/** Read before the revert: the snapshot's saved hardware (its `config`) and power state (its tree node). */
export async function readSnapshotRestore(
  ctx: VimContext,
  vm: MoRef,
  snapshot: MoRef,
): Promise<SnapshotRestore | undefined> {
  const info = await readVirtualMachine(ctx, vm);
  const node = findSnapshot(info?.snapshot?.rootSnapshotList ?? [], snapshot.value)?.node;
  if (node === undefined) return undefined;
  const o = await retrieveObject(ctx.caller, ctx.content.propertyCollector, snapshot, [
    'config.hardware.numCPU',
    'config.hardware.numCoresPerSocket',
    'config.hardware.memoryMB',
  ]);
  return {
    numCPU: asNumber(o?.props.get('config.hardware.numCPU')),
    numCoresPerSocket: asNumber(o?.props.get('config.hardware.numCoresPerSocket')),
    memoryMB: asNumber(o?.props.get('config.hardware.memoryMB')),
    powerState: node.state,
  };
}

/**
 * After vcsim's RevertToSnapshot_Task succeeded (it only moves `currentSnapshot`): the VM gets the
 * snapshot's CPU, cores and memory back and the snapshot's power state, as vCenter reverts the
 * whole VM: a snapshot without memory leaves it powered off, one with memory running.
 */
export async function applySnapshotRestore(
  ctx: VimContext,
  vm: MoRef,
  restore: SnapshotRestore,
): Promise<void> {
  const now = await readVirtualMachine(ctx, vm);
  if (now === undefined) return;
  const change = {
    numCPUs: restore.numCPU !== now.numCPU ? restore.numCPU : undefined,
    numCoresPerSocket:
      restore.numCoresPerSocket !== now.numCoresPerSocket ? restore.numCoresPerSocket : undefined,
    memoryMB: restore.memoryMB !== now.memoryMB ? restore.memoryMB : undefined,
  };
  const hardware = Object.values(change).some((v) => v !== undefined);
  // The hardware is the front's to set while off (its own rules refuse a hot change it is not asked).
  let on = now.powerState === 'poweredOn';
  if (on && (restore.powerState !== 'poweredOn' || hardware)) {
    await runTask(ctx, (o) => vmObject(ctx, vm).powerOff(o));
    on = false;
  }
  if (hardware) await reconfigureHardware(ctx, vm, change);
  if (!on && restore.powerState === 'poweredOn') await runTask(ctx, (o) => vmObject(ctx, vm).powerOn(o));
}
