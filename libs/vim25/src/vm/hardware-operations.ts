import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** CPU/memory change; unset fields are left as they are. */
export interface HardwareChange {
  readonly numCPUs?: number;
  readonly numCoresPerSocket?: number;
  readonly memoryMB?: number;
}

/** ReconfigVM_Task with numCPUs / numCoresPerSocket / memoryMB (WSDL order), waited for. */
export async function reconfigureHardware(
  ctx: VimContext,
  vm: MoRef,
  change: HardwareChange,
  options?: VmOperationOptions,
): Promise<void> {
  const spec = {
    numCPUs: change.numCPUs,
    numCoresPerSocket: change.numCoresPerSocket,
    memoryMB: change.memoryMB,
  };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
}
