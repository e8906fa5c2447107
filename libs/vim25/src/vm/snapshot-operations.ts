import {
  createSnapshotTask,
  removeAllSnapshotsTask,
  removeSnapshotTask,
  revertToSnapshotTask,
} from '../methods/virtual-machine-snapshot';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { asMoRef } from '../xml/values';
import { runTask, type VmOperationOptions } from './run-task';

/** CreateSnapshot_Task, waited for; the new snapshot's moref (undefined if vCenter gave none). */
export async function createVmSnapshot(
  ctx: VimContext,
  vm: MoRef,
  spec: { name: string; description: string; memory: boolean; quiesce: boolean },
  options?: VmOperationOptions,
): Promise<MoRef | undefined> {
  const result = await runTask(
    ctx,
    async (o) => ({
      ref: await createSnapshotTask(ctx.caller, vm, spec, o),
      operation: 'CreateSnapshot_Task',
    }),
    options,
  );
  return asMoRef(result);
}

/** RevertToSnapshot_Task, waited for. */
export async function revertToVmSnapshot(
  ctx: VimContext,
  snapshot: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await runTask(
    ctx,
    async (o) => ({
      ref: await revertToSnapshotTask(ctx.caller, snapshot, o),
      operation: 'RevertToSnapshot_Task',
    }),
    options,
  );
}

/** RemoveSnapshot_Task keeping the children, consolidating, waited for. */
export async function removeVmSnapshot(
  ctx: VimContext,
  snapshot: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await runTask(
    ctx,
    async (o) => ({
      ref: await removeSnapshotTask(ctx.caller, snapshot, false, o),
      operation: 'RemoveSnapshot_Task',
    }),
    options,
  );
}

/** RemoveAllSnapshots_Task, consolidating, waited for. */
export async function removeAllVmSnapshots(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await runTask(
    ctx,
    async (o) => ({
      ref: await removeAllSnapshotsTask(ctx.caller, vm, o),
      operation: 'RemoveAllSnapshots_Task',
    }),
    options,
  );
}
