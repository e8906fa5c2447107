import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** PowerOnVM_Task, waited for. InvalidPowerState etc. raise VimFault. */
export async function powerOnVm(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await runTask(ctx, (o) => vmObject(ctx, vm).powerOn(o), options);
}

/** PowerOffVM_Task (hard), waited for. Already off: VimFault InvalidPowerState. */
export async function powerOffVm(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await runTask(ctx, (o) => vmObject(ctx, vm).powerOff(o), options);
}

/** ResetVM_Task (hard), waited for. */
export async function resetVm(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await runTask(ctx, (o) => vmObject(ctx, vm).reset(o), options);
}

/** SuspendVM_Task, waited for. */
export async function suspendVm(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await runTask(ctx, (o) => vmObject(ctx, vm).suspend(o), options);
}

/** ShutdownGuest: asks the guest (VMware Tools) to shut down; returns once vCenter accepted it. One round trip. */
export async function shutdownGuestOs(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await vmObject(ctx, vm).shutdownGuest(options);
}

/** RebootGuest: asks the guest (VMware Tools) to reboot. MethodNotFound on vcsim. One round trip. */
export async function rebootGuestOs(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await vmObject(ctx, vm).rebootGuest(options);
}
