import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { IntegrationRepository } from '../repositories/integration.repository';
import { SyncLockRepository } from '../repositories/sync-lock.repository';
import { SynchronisationService } from './synchronisation.service';

/**
 * Runs the requested synchronisations: at most one per offering at a time across every adapter
 * instance (a Postgres advisory lock), requests made meanwhile coalesced into one more run (a
 * request is a timestamp on the offering's row, cleared when a run takes it), at most
 * `VSPHERE_SYNC_CONCURRENCY` offerings at once per process. A periodic sweep takes requests whose
 * kick was lost and runs cut off by a crash.
 */
@Injectable()
export class SyncCoordinator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loops = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly queue: (() => void)[] = [];
  private active = 0;
  private sweepTimer?: NodeJS.Timeout;
  private readonly stop = new AbortController();

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly integrations: IntegrationRepository,
    private readonly locks: SyncLockRepository,
    private readonly sync: SynchronisationService,
  ) {}

  onApplicationBootstrap(): void {
    this.sweepTimer = setInterval(() => void this.sweep(), this.config.VSPHERE_SYNC_SWEEP_MS);
    this.sweepTimer.unref();
    void this.sweep();
  }

  /** Stops taking work, aborts the running synchronisations' vCenter calls and waits for them. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.stop.abort(new Error('the vSphere adapter is stopping'));
    for (const release of this.queue.splice(0)) release();
    await Promise.allSettled([...this.loops.values()]);
  }

  /** Call after a request was committed: runs it now here, unless a run of the offering is under way. */
  kick(offeringUuid: string): void {
    if (this.stop.signal.aborted) return;
    if (this.loops.has(offeringUuid)) {
      this.again.add(offeringUuid);
      return;
    }
    const loop = this.loop(offeringUuid)
      .catch((error: unknown) =>
        this.logger.error({ err: error, offeringUuid }, 'synchronisation loop failed'),
      )
      .finally(() => this.loops.delete(offeringUuid));
    this.loops.set(offeringUuid, loop);
  }

  /** Resolves when no synchronisation of the offering runs in this process (tests, tools). */
  async idle(offeringUuid: string): Promise<void> {
    while (this.loops.has(offeringUuid)) await this.loops.get(offeringUuid);
  }

  private async loop(offeringUuid: string): Promise<void> {
    await this.slot();
    try {
      for (;;) {
        if (this.stop.signal.aborted) return;
        this.again.delete(offeringUuid);
        const run = await this.locks.withLock(offeringUuid, async () => {
          while (!this.stop.signal.aborted && (await this.sync.runIfClaimed(offeringUuid, this.stop.signal)));
        });
        // Another instance runs it: that run takes our request when it ends.
        if (!run.acquired || this.stop.signal.aborted) return;
        // A request committed after the last claim, before the unlock, found the lock taken.
        if (!this.again.has(offeringUuid) && !(await this.integrations.isSyncRequested(offeringUuid))) return;
      }
    } finally {
      // The slot goes straight to the next waiter, if any.
      const next = this.queue.shift();
      if (next !== undefined) next();
      else this.active--;
    }
  }

  private async slot(): Promise<void> {
    if (this.active < this.config.VSPHERE_SYNC_CONCURRENCY) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  private async sweep(): Promise<void> {
    try {
      for (const offeringUuid of await this.integrations.dueForSync()) this.kick(offeringUuid);
    } catch (error) {
      this.logger.warn({ err: error }, 'synchronisation sweep failed; it runs again shortly');
    }
  }
}
