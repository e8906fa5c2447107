import type { MoRef } from '@app/vim25';

/** One VM task the front has forwarded and not yet answered. */
export interface VmTaskInFlight {
  /** The Task vcsim created, once it answered. */
  task?: MoRef;
}

/**
 * The VM tasks in flight through the front, by VM moref: vcsim finishes a task before it answers,
 * so "running" here is from the request until the front's answer (held by `delayVmTasks`).
 */
export class VmTaskLedger {
  private readonly running = new Map<string, VmTaskInFlight>();

  /** The task in flight on `vm`, if any. */
  inFlight(vm: string): VmTaskInFlight | undefined {
    return this.running.get(vm);
  }

  /** Marks a task in flight on `vm` (call only after `inFlight` found none, in the same tick). */
  begin(vm: string): VmTaskInFlight {
    const entry: VmTaskInFlight = {};
    this.running.set(vm, entry);
    return entry;
  }

  end(vm: string, entry: VmTaskInFlight): void {
    if (this.running.get(vm) === entry) this.running.delete(vm);
  }
}
