import type { VmOperationKind } from '@app/contracts';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { VmCallOptions } from '../../vcenter/ports/vm-provisioner.port';

/** One queued operation as the runner hands it to its executor. */
export interface QueuedOperation {
  readonly uuid: string;
  readonly kind: VmOperationKind;
  /** What the request carried, as the request handler stored it (`{size}`, `{cpu, ram}`, ...). */
  readonly params: Readonly<Record<string, unknown>>;
  /** vCenter's instance uuid of the VM (`virtual_machines.backend_uuid`), and its row's uuid. */
  readonly vmBackendUuid: string;
  readonly vmRowUuid: string;
  readonly offeringUuid: string;
  readonly moref: string;
  readonly diskUuid: string | null;
  readonly portUuid: string | null;
}

/** What an executor gets to carry its operation out on vCenter. */
export interface OperationContext {
  readonly operation: QueuedOperation;
  readonly connection: VcenterConnection;
  /** Property reads and short calls. */
  readonly short: VmCallOptions;
  /** Tasks and their waits (on connections of their own). */
  readonly long: VmCallOptions;
}

/**
 * What vCenter made that the records need beyond a read-back of the VM: the device key of a disk
 * or adapter the operation created (found by key diff, never by label).
 */
export interface OperationResult {
  readonly createdDeviceKey?: number;
}

/**
 * Carries out operations of the given kinds on vCenter and waits for their end. It throws to fail
 * the operation: vCenter's faults as they come (the runner puts vCenter's message on the VM, disk
 * or adapter), `OperationRefused` when vCenter's live state no longer allows it (nothing turns
 * Erred then). After it returns, the runner reads the VM back and records it with the result.
 */
export interface VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[];
  execute(context: OperationContext): Promise<OperationResult>;
}

/** The operation is no longer possible in the VM's live state: said to the user, nothing Erred. */
export class OperationRefused extends Error {
  override readonly name = 'OperationRefused';
}

/** Nest injection token: every executor is provided under it as a multi-provider array. */
export const VM_OPERATION_EXECUTORS = Symbol('VmOperationExecutors');
