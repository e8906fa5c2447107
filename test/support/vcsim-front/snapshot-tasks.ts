import { readVirtualMachine, type MoRef, type VimContext } from '@app/vim25';
import type { SdkCall } from './sdk-request';
import { applySnapshotRestore, readSnapshotRestore } from './snapshot-revert-fixup';
import { createSnapshotRefusal } from './snapshot-rules';
import type { FrontFault } from './soap-faults';

/** A snapshot task's refusal, or what to do once vcsim's task succeeded. */
export interface SnapshotTaskPlan {
  readonly fault?: FrontFault;
  readonly afterSuccess?: () => Promise<void>;
}

/** True for a `*_Task` called on a VirtualMachineSnapshot (revert, remove): a task of its VM. Pure. */
export function isSnapshotTask(call: SdkCall): boolean {
  return call.self?.type === 'VirtualMachineSnapshot' && call.method.endsWith('_Task');
}

/**
 * What vCenter does that vcsim does not around a snapshot task on `vm`: CreateSnapshot_Task one
 * level past the chain limit is refused; RevertToSnapshot_Task puts the VM's hardware and power
 * state back to the snapshot's afterwards (vcsim only moves `currentSnapshot`). Other calls: nothing.
 */
export async function planSnapshotTask(ctx: VimContext, call: SdkCall, vm: MoRef): Promise<SnapshotTaskPlan> {
  if (call.method === 'CreateSnapshot_Task') {
    const fault = createSnapshotRefusal((await readVirtualMachine(ctx, vm))?.snapshot);
    return fault === undefined ? {} : { fault };
  }
  if (call.method === 'RevertToSnapshot_Task' && call.self !== undefined) {
    const restore = await readSnapshotRestore(ctx, vm, call.self);
    return restore === undefined ? {} : { afterSuccess: () => applySnapshotRestore(ctx, vm, restore) };
  }
  return {};
}
