import type { SoapObject } from '../soap/soap-encoder';
import type { SoapCaller } from '../soap/soap-transport';
import { asObject, asString } from '../xml/values';
import type { MoRef } from '../types/mo-ref';
import { invoke, invokeForMoRef, type CallOptions } from './invoke';

/** VirtualMachine.PowerOnVM_Task: starts the VM; returns the Task. One round trip. */
export async function powerOnVmTask(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<MoRef> {
  return invokeForMoRef(caller, 'PowerOnVM_Task', vm, {}, options);
}

/** VirtualMachine.PowerOffVM_Task: hard power off; returns the Task. One round trip. */
export async function powerOffVmTask(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<MoRef> {
  return invokeForMoRef(caller, 'PowerOffVM_Task', vm, {}, options);
}

/** VirtualMachine.ResetVM_Task: hard reset; returns the Task. One round trip. */
export async function resetVmTask(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<MoRef> {
  return invokeForMoRef(caller, 'ResetVM_Task', vm, {}, options);
}

/** VirtualMachine.SuspendVM_Task: suspends; returns the Task. One round trip. */
export async function suspendVmTask(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<MoRef> {
  return invokeForMoRef(caller, 'SuspendVM_Task', vm, {}, options);
}

/** VirtualMachine.ShutdownGuest: asks VMware Tools for a clean shutdown (no task; returns at once). One round trip. */
export async function shutdownGuest(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<void> {
  await invoke(caller, 'ShutdownGuest', vm, {}, options);
}

/** VirtualMachine.RebootGuest: asks VMware Tools for a clean reboot (no task). One round trip. */
export async function rebootGuest(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<void> {
  await invoke(caller, 'RebootGuest', vm, {}, options);
}

/** VirtualMachine.ReconfigVM_Task: applies a VirtualMachineConfigSpec (WSDL order); returns the Task. One round trip. */
export async function reconfigVmTask(
  caller: SoapCaller,
  vm: MoRef,
  spec: SoapObject,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'ReconfigVM_Task', vm, { spec }, options);
}

/** VirtualMachine.MarkAsTemplate: turns a powered-off VM into a template. One round trip. */
export async function markAsTemplate(caller: SoapCaller, vm: MoRef, options?: CallOptions): Promise<void> {
  await invoke(caller, 'MarkAsTemplate', vm, {}, options);
}

/** VirtualMachine.MarkAsVirtualMachine: turns a template back into a VM in `pool` (and `host`). One round trip. */
export async function markAsVirtualMachine(
  caller: SoapCaller,
  vm: MoRef,
  pool: MoRef,
  host?: MoRef,
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'MarkAsVirtualMachine', vm, { pool, host }, options);
}

/** vim25 VirtualMachineTicket (subset). */
export interface VirtualMachineTicket {
  readonly ticket: string;
  readonly host?: string;
  readonly port?: number;
  readonly sslThumbprint?: string;
  readonly url?: string;
}

/** VirtualMachine.AcquireTicket: a console ticket of `ticketType` (`webmks`, `mks`). MethodNotFound on vcsim. One round trip. */
export async function acquireTicket(
  caller: SoapCaller,
  vm: MoRef,
  ticketType: string,
  options?: CallOptions,
): Promise<VirtualMachineTicket> {
  const o = asObject(await invoke(caller, 'AcquireTicket', vm, { ticketType }, options));
  const port = Number(asString(o?.port));
  return {
    ticket: asString(o?.ticket) ?? '',
    host: asString(o?.host),
    port: Number.isFinite(port) && port > 0 ? port : undefined,
    sslThumbprint: asString(o?.sslThumbprint),
    url: asString(o?.url),
  };
}

/** VirtualMachine.CloneVM_Task: clones into `folder` as `name` with a VirtualMachineCloneSpec; returns the Task. One round trip. */
export async function cloneVmTask(
  caller: SoapCaller,
  vm: MoRef,
  folder: MoRef,
  name: string,
  spec: SoapObject,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'CloneVM_Task', vm, { folder, name, spec }, options);
}
