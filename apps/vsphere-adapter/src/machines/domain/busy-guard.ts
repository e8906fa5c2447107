/**
 * One operation per key at a time, refusing (not queueing) a second: vCenter answers TaskInProgress
 * to a second task on the same VM, so the adapter says so first, before anything reaches vCenter.
 */
export class BusyGuard {
  private readonly running = new Set<string>();

  /** Runs `work` unless work on `key` is running; null then. */
  async tryRun<T>(key: string, work: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.running.has(key)) return null;
    this.running.add(key);
    try {
      return { value: await work() };
    } finally {
      this.running.delete(key);
    }
  }
}
