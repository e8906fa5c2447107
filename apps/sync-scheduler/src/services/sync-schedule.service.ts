import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SyncRequestedEvent, VMWARE_VM_TYPE } from '@app/contracts';
import { SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { SyncTargetsClient } from '../adapters/sync-targets.client';
import { CONFIG, type SyncSchedulerConfig } from '../config/sync-scheduler.config';
import { SyncScheduleRepository } from '../repositories/sync-schedule.repository';
import { LeaderLease } from './leader-lease';

/**
 * Every `SYNC_INTERVAL_MS`, a SyncRequested for every vSphere offering that is not archived (ERRED
 * ones included). Only the leader asks; each request is claimed in the same transaction as its
 * outbox row, so an offering is requested once per interval across ticks, restarts and hand-overs.
 */
@Injectable()
export class SyncScheduleService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly lease: LeaderLease;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    @Inject(CONFIG) private readonly config: SyncSchedulerConfig,
    private readonly schedule: SyncScheduleRepository,
    private readonly targets: SyncTargetsClient,
  ) {
    this.lease = new LeaderLease(
      runtime.dataSource,
      `sync-scheduler:${runtime.topology.namespace}`,
      runtime.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.tickInBackground(), this.config.SYNC_TICK_MS);
    this.tickInBackground();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.lease.release();
    await this.targets.close();
  }

  /** One tick: lead or not, and if leading, request what is due. Returns how many were requested. */
  async tick(): Promise<number> {
    if (!(await this.lease.refresh())) return 0;
    const offerings = await this.targets.offeringUuids();
    const { dataSource, outbox, topology } = this.runtime;
    let requested = 0;
    for (const offeringUuid of offerings) {
      const claimed = await dataSource.transaction(async (manager) => {
        if (!(await this.schedule.claimDue(manager, offeringUuid, this.config.SYNC_INTERVAL_MS)))
          return false;
        await outbox.append(
          manager,
          topology.subjects.syncRequested(VMWARE_VM_TYPE),
          SyncRequestedEvent,
          { offeringUuid, reason: 'schedule' },
          offeringUuid,
        );
        return true;
      });
      if (claimed) requested += 1;
    }
    await this.schedule.keepOnly(offerings);
    if (requested > 0) {
      this.runtime.relay.wake();
      this.runtime.logger.info({ requested, offerings: offerings.length }, 'synchronisations requested');
    }
    return requested;
  }

  private tickInBackground(): void {
    if (this.running) return; // a slow tick (NATS or Postgres away) is not stacked
    this.running = this.tick()
      .then(() => undefined)
      .catch((error: unknown) =>
        this.runtime.logger.warn({ err: error }, 'schedule tick failed; next tick retries'),
      )
      .finally(() => (this.running = undefined));
  }
}
