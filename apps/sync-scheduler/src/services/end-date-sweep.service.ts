import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { LOGGER } from '@app/messaging';
import type { Logger } from '@app/platform/logging/json-logger';
import { EndDatesSweepClient } from '../adapters/end-dates-sweep.client';
import { CONFIG, type SyncSchedulerConfig } from '../config/sync-scheduler.config';
import { LeaderLeaseRepository } from '../repositories/leader-lease.repository';
import { LeaderTicker } from './leader-ticker';

/**
 * Every `END_DATE_TICK_MS`, the leader asks the order service to act on end dates that are due
 * (warnings, Terminate orders): one sweeper for the whole system, whatever the number of scheduler
 * instances, by the same advisory-lock lease as the synchronisation schedule (a key of its own, so
 * the two may lead from different instances). A sweep is idempotent in the order service, so a
 * hand-over in the middle of one never terminates anything twice.
 */
@Injectable()
export class EndDateSweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly ticker: LeaderTicker<boolean>;

  constructor(
    leases: LeaderLeaseRepository,
    @Inject(LOGGER) logger: Logger,
    @Inject(CONFIG) private readonly config: SyncSchedulerConfig,
    private readonly sweeps: EndDatesSweepClient,
  ) {
    this.ticker = new LeaderTicker(
      leases,
      `end-dates:${config.NATS_NAMESPACE}`,
      logger,
      async () => {
        await this.sweeps.sweep();
        return true;
      },
      'end dates sweep',
    );
  }

  onApplicationBootstrap(): void {
    this.ticker.start(this.config.END_DATE_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.ticker.stop();
    await this.sweeps.close();
  }

  /** One tick: lead or not, and if leading, one sweep. Answers whether it swept. */
  async tick(): Promise<boolean> {
    return (await this.ticker.tick()) ?? false;
  }
}
