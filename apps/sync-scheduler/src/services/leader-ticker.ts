import type { Logger } from '@app/platform/logging/json-logger';
import type { LeaderLeaseRepository } from '../repositories/leader-lease.repository';

/**
 * A piece of work done every so often by one scheduler instance for the whole system: the holder
 * of the lease named `key` (each kind of work a key of its own, so two kinds may lead from
 * different instances). A run still going when the next is due is not stacked; a failed run is
 * logged and the next tick tries again; at shutdown the running one is awaited and the lease freed.
 */
export class LeaderTicker<T> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly leases: LeaderLeaseRepository,
    private readonly key: string,
    private readonly logger: Logger,
    private readonly work: () => Promise<T>,
    /** What the log names when a run fails. */
    private readonly what: string,
  ) {}

  start(everyMs: number): void {
    this.timer = setInterval(() => this.tickInBackground(), everyMs);
    this.tickInBackground();
  }

  /** One tick: the work's result while this instance leads, undefined when another does. */
  async tick(): Promise<T | undefined> {
    if (!(await this.leases.refresh(this.key))) return undefined;
    return this.work();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.leases.release(this.key);
  }

  private tickInBackground(): void {
    if (this.running) return;
    this.running = this.tick()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.warn({ err: error }, `${this.what} failed; next tick retries`))
      .finally(() => (this.running = undefined));
  }
}
