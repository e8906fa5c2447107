import type { VmOperationKind, VmOperationView } from '@app/contracts';
import type { Transaction } from '@app/messaging';

/** An operation to queue on a VM: what the request handler checked and stores. */
export interface NewOperation {
  /** Chosen by the caller when something was keyed by it first (a quota reservation); else new. */
  readonly uuid?: string;
  /** `virtual_machines.uuid` (the row), not vCenter's uuid. */
  readonly vmRowUuid: string;
  readonly kind: VmOperationKind;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly diskUuid?: string;
  readonly portUuid?: string;
  readonly requestedBy: string | null;
}

/**
 * The durable per-VM queue of day-2 operations. A request handler enqueues in the transaction that
 * records the request (a device row in CREATING, the VM in UPDATING) and answers 202 with the view;
 * `wake()` after the commit lets the runner start at once. Operations on one VM run one at a time
 * across every adapter instance, in the order they were queued.
 */
export abstract class VmOperationQueue {
  abstract enqueue(tx: Transaction, operation: NewOperation): Promise<VmOperationView>;
  abstract wake(): void;
}
