import type { VirtualMachineTicket } from '../methods/virtual-machine';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { vmObject, type VmOperationOptions } from './run-task';

/**
 * The VMware Remote Console URL of a VM with no ticket: `vmrc://<host[:port]>/?moid=<vm>`. VMRC asks
 * whoever opens it for their own vCenter credentials, so the URL grants nothing. (The other VMRC
 * form, `vmrc://clone:<ticket>@...`, carries a SessionManager.AcquireCloneTicket ticket, which
 * CloneSession turns into a full session of the account that asked for it: never hand one out.)
 * Keeps a non-default port of `serverAddress`. Pure.
 */
export function vmrcUrl(serverAddress: string, vm: MoRef): string {
  return `vmrc://${serverAddress}/?moid=${encodeURIComponent(vm.value)}`;
}

/**
 * VirtualMachine.AcquireTicket("webmks"): a ticket for one HTML5 console of this VM, single use,
 * issued for a powered-on VM only (InvalidState otherwise); MethodNotFound where the server lacks
 * it (vcsim alone). One round trip.
 */
export async function acquireWebMksTicket(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<VirtualMachineTicket> {
  return vmObject(ctx, vm).acquireTicket('webmks', options);
}

/**
 * Where a browser opens the WebMKS console of a ticket: the URL vCenter gave with it, or one made from
 * its host and port (the ESXi host that runs the VM; `fallbackHost`, vCenter's, when it names none).
 * An IPv6 address goes in brackets, as a URL's host must. Pure.
 */
export function webMksUrl(ticket: VirtualMachineTicket, fallbackHost: string): string {
  if (ticket.url !== undefined && ticket.url !== '') return ticket.url;
  const host = ticket.host ?? fallbackHost;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `wss://${bracketed}:${ticket.port ?? 443}/ticket/${encodeURIComponent(ticket.ticket)}`;
}
