import type { TaskHandle } from '../objects/task-handle';
import { VirtualMachineObject } from '../objects/virtual-machine-object';
import { waitForTask } from '../task/wait-for-task';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import type { XmlValue } from '../xml/decoder';

/** Options of a VM operation: AbortSignal and overall timeout in ms (task wait included). */
export interface VmOperationOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** The VirtualMachine wrapper bound to the context's caller. Pure. */
export function vmObject(ctx: VimContext, vm: MoRef): VirtualMachineObject {
  return new VirtualMachineObject(ctx.caller, vm);
}

/**
 * Starts a task and waits for its end through the property collector; returns `info.result`.
 * A failed task throws VimFault. Cost: the start call + the task wait (~4 round trips).
 */
export async function runTask(
  ctx: VimContext,
  start: (call: { signal?: AbortSignal; timeoutMs?: number }) => Promise<TaskHandle>,
  options: VmOperationOptions = {},
): Promise<XmlValue | undefined> {
  const task = await start({ signal: options.signal, timeoutMs: options.timeoutMs });
  return waitForTask(ctx.caller, ctx.content.propertyCollector, task, options);
}
