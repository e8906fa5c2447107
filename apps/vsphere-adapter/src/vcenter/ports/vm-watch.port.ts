import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { RemoteVm } from './vm-provisioner.port';

/**
 * The figures of a VM's record a `modify` gives as they are now: the recorded columns whose
 * vCenter property it assigned (a power state, a name, a vCPU or memory figure, the Tools state).
 */
export type VmPatch = Partial<
  Pick<RemoteVm, 'name' | 'runtimeState' | 'cpu' | 'coresPerSocket' | 'ram' | 'toolsState' | 'toolsInstalled'>
>;

/** One VM's update in a WaitForUpdatesEx answer. */
export interface VmUpdate {
  /** Managed object id (`vm-42`). */
  readonly moref: string;
  /** `enter`: the VM came into the view (the initial state included); `leave`: it left (deleted). */
  readonly kind: 'enter' | 'leave' | 'modify';
  /** The VM as the update gives it whole (an `enter` of a VM, not a template); else absent. */
  readonly remote?: RemoteVm;
  /**
   * A `modify` whose every change is a figure of the record assigned whole: those figures, so the
   * VM need not be read again. Absent for a change of its devices, snapshots or identity (the VM
   * is read then, as it is after the answer).
   */
  readonly patch?: VmPatch;
}

/** One answer of the subscription, in vCenter's order. */
export interface VmUpdateBatch {
  readonly version: string;
  /** More updates are pending: ask again at once with `version`. */
  readonly truncated: boolean;
  readonly updates: readonly VmUpdate[];
}

/** How one wait waits and how much it may answer. */
export interface VmWatchWait {
  readonly maxWaitSeconds: number;
  readonly maxObjectUpdates: number;
  readonly signal: AbortSignal;
}

/**
 * A live subscription to one vCenter's VMs: a property filter over a container view of every VM,
 * with only the properties the adapter records, on a session and connections of its own (never
 * the pool of short calls). It dies with its session: after a re-login vCenter answers
 * ManagedObjectNotFound (or NotAuthenticated) and a new one must be opened.
 */
export interface VmWatch {
  /** One WaitForUpdatesEx after `version` ('' = every VM's current state); undefined: nothing changed. */
  next(version: string, wait: VmWatchWait): Promise<VmUpdateBatch | undefined>;
  /** The VMs `morefs` as they are now (absent: gone), in one property-collector round trip. */
  read(morefs: readonly string[], signal: AbortSignal): Promise<RemoteVm[]>;
  /** Destroys the collector, its filter and the view (best effort). */
  close(): Promise<void>;
}

export interface VmWatchSource {
  /** Opens a subscription (three round trips). */
  open(connection: VcenterConnection, signal: AbortSignal): Promise<VmWatch>;
}

export const VM_WATCH_SOURCE = Symbol('VmWatchSource');

/**
 * The subscription cannot go on from its version: vCenter no longer accepts it (`version`:
 * InvalidCollectorVersion) or the session it lived in is gone (`session`: NotAuthenticated, or the
 * collector unknown after a re-login). A full comparison repairs what was missed.
 */
export class VmWatchLost extends Error {
  override readonly name = 'VmWatchLost';
  constructor(
    readonly reason: 'version' | 'session',
    message: string,
  ) {
    super(message);
  }
}
