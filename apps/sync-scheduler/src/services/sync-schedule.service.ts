import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SyncRequestedEvent, VMWARE_VM_TYPE } from '@app/contracts';
import { LOGGER, OutboxWriter, UnitOfWork } from '@app/messaging';
import type { Logger } from '@app/platform/logging/json-logger';
import { SyncTargetsClient } from '../adapters/sync-targets.client';
import { CONFIG, type SyncSchedulerConfig } from '../config/sync-scheduler.config';
import { SyncScheduleRepository } from '../repositories/sync-schedule.repository';
import { LeaderLeaseRepository } from '../repositories/leader-lease.repository';
import { LeaderTicker } from './leader-ticker';

/**
 * Every `SYNC_INTERVAL_MS`, a SyncRequested for every vSphere offering that is not archived (ERRED
 * ones included). Only the leader asks; each request is claimed in the same transaction as its
 * outbox row, so an offering is requested once per interval across ticks, restarts and hand-overs.
 */
@Injectable()
export class SyncScheduleService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly ticker: LeaderTicker<number>;

  constructor(
    leases: LeaderLeaseRepository,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly uow: UnitOfWork,
    private readonly writer: OutboxWriter,
    @Inject(CONFIG) private readonly config: SyncSchedulerConfig,
    private readonly schedule: SyncScheduleRepository,
    private readonly targets: SyncTargetsClient,
  ) {
    this.ticker = new LeaderTicker(
      leases,
      `sync-scheduler:${config.NATS_NAMESPACE}`,
      logger,
      () => this.requestDue(),
      'schedule tick',
    );
  }

  onApplicationBootstrap(): void {
    this.ticker.start(this.config.SYNC_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.ticker.stop();
    await this.targets.close();
  }

  /** One tick: lead or not, and if leading, request what is due. Returns how many were requested. */
  async tick(): Promise<number> {
    return (await this.ticker.tick()) ?? 0;
  }

  private async requestDue(): Promise<number> {
    const offerings = await this.targets.offeringUuids();
    let requested = 0;
    for (const offeringUuid of offerings) {
      const claimed = await this.uow.run(async (manager) => {
        if (!(await this.schedule.claimDue(manager, offeringUuid, this.config.SYNC_INTERVAL_MS)))
          return false;
        await this.writer.append(
          manager,
          this.writer.subjects.syncRequested(VMWARE_VM_TYPE),
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
      this.writer.wake();
      this.logger.info({ requested, offerings: offerings.length }, 'synchronisations requested');
    }
    return requested;
  }
}
