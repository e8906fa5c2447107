import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { VcenterSubscriptionHealth } from '@app/contracts';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { SyncLockRepository } from '../../integration/repositories/sync-lock.repository';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { VmWatchMetrics } from '../../metrics/vm-watch-metrics';
import { VM_WATCH_SOURCE, type VmWatchSource } from '../../vcenter/ports/vm-watch.port';
import { VmViewRepository } from '../repositories/vm-view.repository';
import { VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import { VmPullService } from './vm-pull.service';
import { VmSubscription, type VmSubscriptionDeps } from './vm-subscription';
import { VmUpdateApplier } from './vm-update-applier.service';

/**
 * Push from vCenter: one live subscription (VmSubscription) per offering with VMs across every
 * adapter instance. Every VSPHERE_VM_WATCH_LEASE_CHECK_MS each instance tries the lease (an
 * advisory lock held on a connection of its own) of each offering it does not hold; Postgres frees
 * the lock when its holder dies, so another instance takes the subscription over within that
 * interval. The holder checks its lock's connection as often, and stops when it is lost.
 */
@Injectable()
export class VmWatchService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Lease attempts and subscriptions running here, by offering. */
  private readonly running = new Map<string, Promise<unknown>>();
  /** The offerings whose lease this instance holds. */
  private readonly leased = new Set<string>();
  private readonly stop = new AbortController();
  private timer?: NodeJS.Timeout;
  private readonly deps: VmSubscriptionDeps;

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_WATCH_SOURCE) source: VmWatchSource,
    access: VcenterAccessService,
    pulls: VmPullService,
    applier: VmUpdateApplier,
    private readonly states: VmWatchStateRepository,
    metrics: VmWatchMetrics,
    private readonly locks: SyncLockRepository,
    private readonly vms: VmViewRepository,
  ) {
    this.deps = {
      config,
      logger,
      access,
      source,
      pulls,
      applier,
      states,
      metrics,
      holder: this.holder,
      clock: () => vms.now(),
    };
  }

  onApplicationBootstrap(): void {
    if (!this.config.VSPHERE_VM_WATCH) return;
    this.timer = setInterval(() => void this.claim(), this.config.VSPHERE_VM_WATCH_LEASE_CHECK_MS);
    this.timer.unref();
    void this.claim();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.stop.abort(new Error('the vSphere adapter is stopping'));
    await Promise.allSettled([...this.running.values()]);
  }

  /** The offerings whose subscription this instance runs now. */
  held(): string[] {
    return [...this.leased];
  }

  /**
   * Every offering with VMs and its subscription as the holders recorded it: `down` when it says
   * so, or when its heartbeat is older than three waits (its holder died and none took it over).
   */
  async health(): Promise<VcenterSubscriptionHealth[]> {
    if (!this.config.VSPHERE_VM_WATCH) return [];
    const offerings = await this.vms.offeringsWithVms();
    const rows = new Map((await this.states.all(offerings)).map((row) => [row.offeringUuid, row]));
    const staleMs =
      3 * (this.config.VSPHERE_VM_WATCH_MAX_WAIT_SECONDS * 1000 + this.config.VSPHERE_CALL_TIMEOUT_MS);
    const now = Date.now();
    return offerings.map((offering): VcenterSubscriptionHealth => {
      const row = rows.get(offering);
      if (row === undefined)
        return { offering_uuid: offering, state: 'starting', reason: 'not held yet', heartbeat_at: null };
      const stale = now - row.heartbeatAt.getTime() > staleMs;
      return {
        offering_uuid: offering,
        state: stale ? 'down' : row.state,
        reason: stale ? 'no adapter instance has renewed it' : row.reason,
        heartbeat_at: row.heartbeatAt.toISOString(),
      };
    });
  }

  private async claim(): Promise<void> {
    if (this.stop.signal.aborted) return;
    let offerings: string[];
    try {
      offerings = await this.vms.offeringsWithVms();
    } catch (error) {
      this.logger.warn({ err: error }, 'listing the offerings to subscribe to failed');
      return;
    }
    for (const offering of offerings) {
      if (this.running.has(offering) || this.stop.signal.aborted) continue;
      const run = this.locks
        .withLease(offering, 'vmWatch', this.config.VSPHERE_VM_WATCH_LEASE_CHECK_MS, async (lost) => {
          this.leased.add(offering);
          try {
            await new VmSubscription(offering, this.deps).run(AbortSignal.any([this.stop.signal, lost]));
          } finally {
            this.leased.delete(offering);
          }
        })
        .catch((error: unknown) => {
          this.logger.warn({ err: error, offeringUuid: offering }, 'the vCenter subscription lease failed');
        })
        .finally(() => this.running.delete(offering));
      this.running.set(offering, run);
    }
  }
}
