import type { SoapObject } from '../soap/soap-encoder';
import type { SoapCaller } from '../soap/soap-transport';
import type { CallOptions } from '../methods/invoke';
import { destroyTask } from '../methods/managed-entity';
import {
  acquireTicket,
  cloneVmTask,
  markAsTemplate,
  markAsVirtualMachine,
  powerOffVmTask,
  powerOnVmTask,
  rebootGuest,
  reconfigVmTask,
  resetVmTask,
  shutdownGuest,
  suspendVmTask,
  type VirtualMachineTicket,
} from '../methods/virtual-machine';
import type { MoRef } from '../types/mo-ref';
import type { TaskHandle } from './task-handle';

/**
 * Thin wrapper of one vim25 VirtualMachine: each method is one SOAP call (one round trip);
 * `*_Task` methods return a TaskHandle to wait on with `task/`.
 */
export class VirtualMachineObject {
  constructor(
    private readonly caller: SoapCaller,
    readonly ref: MoRef,
  ) {}

  private async task(operation: string, start: Promise<MoRef>): Promise<TaskHandle> {
    return { ref: await start, operation };
  }

  /** PowerOnVM_Task. */
  powerOn(options?: CallOptions): Promise<TaskHandle> {
    return this.task('PowerOnVM_Task', powerOnVmTask(this.caller, this.ref, options));
  }

  /** PowerOffVM_Task. */
  powerOff(options?: CallOptions): Promise<TaskHandle> {
    return this.task('PowerOffVM_Task', powerOffVmTask(this.caller, this.ref, options));
  }

  /** ResetVM_Task. */
  reset(options?: CallOptions): Promise<TaskHandle> {
    return this.task('ResetVM_Task', resetVmTask(this.caller, this.ref, options));
  }

  /** SuspendVM_Task. */
  suspend(options?: CallOptions): Promise<TaskHandle> {
    return this.task('SuspendVM_Task', suspendVmTask(this.caller, this.ref, options));
  }

  /** ShutdownGuest (no task). */
  shutdownGuest(options?: CallOptions): Promise<void> {
    return shutdownGuest(this.caller, this.ref, options);
  }

  /** RebootGuest (no task). */
  rebootGuest(options?: CallOptions): Promise<void> {
    return rebootGuest(this.caller, this.ref, options);
  }

  /** ReconfigVM_Task with a VirtualMachineConfigSpec. */
  reconfigure(spec: SoapObject, options?: CallOptions): Promise<TaskHandle> {
    return this.task('ReconfigVM_Task', reconfigVmTask(this.caller, this.ref, spec, options));
  }

  /** Destroy_Task (removes the VM and its files). */
  destroy(options?: CallOptions): Promise<TaskHandle> {
    return this.task('Destroy_Task', destroyTask(this.caller, this.ref, options));
  }

  /** CloneVM_Task. */
  clone(folder: MoRef, name: string, spec: SoapObject, options?: CallOptions): Promise<TaskHandle> {
    return this.task('CloneVM_Task', cloneVmTask(this.caller, this.ref, folder, name, spec, options));
  }

  /** MarkAsTemplate. */
  markAsTemplate(options?: CallOptions): Promise<void> {
    return markAsTemplate(this.caller, this.ref, options);
  }

  /** MarkAsVirtualMachine into `pool` (and `host`). */
  markAsVirtualMachine(pool: MoRef, host?: MoRef, options?: CallOptions): Promise<void> {
    return markAsVirtualMachine(this.caller, this.ref, pool, host, options);
  }

  /** AcquireTicket(`ticketType`). */
  acquireTicket(ticketType: string, options?: CallOptions): Promise<VirtualMachineTicket> {
    return acquireTicket(this.caller, this.ref, ticketType, options);
  }
}
