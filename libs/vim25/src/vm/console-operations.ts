import { acquireCloneTicket } from '../methods/session-manager';
import type { VirtualMachineTicket } from '../methods/virtual-machine';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { vmObject, type VmOperationOptions } from './run-task';

/** The VMware Remote Console URL for a clone ticket. Keeps a non-default port of `serverAddress`. Pure. */
export function vmrcUrl(ticket: string, serverAddress: string, vm: MoRef): string {
  return `vmrc://clone:${encodeURIComponent(ticket)}@${serverAddress}/?moid=${encodeURIComponent(vm.value)}`;
}

/** SessionManager.AcquireCloneTicket → `vmrc://clone:<ticket>@<host[:port]>/?moid=<vm>`. One round trip. */
export async function acquireVmrcUrl(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<string> {
  const ticket = await acquireCloneTicket(ctx.caller, ctx.content.sessionManager, options);
  return vmrcUrl(ticket, ctx.serverAddress, vm);
}

/** VirtualMachine.AcquireTicket("webmks") for an HTML5 console; VimFault MethodNotFound where the server lacks it (vcsim). One round trip. */
export async function acquireWebMksTicket(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<VirtualMachineTicket> {
  return vmObject(ctx, vm).acquireTicket('webmks', options);
}
