import type { Logger } from '@app/platform/logging/json-logger';
import type { InboxRepository } from '../inbox/repositories/inbox.repository';
import type { OutboxRepository } from '../outbox/repositories/outbox.repository';

export interface HousekeepingOptions {
  outbox: OutboxRepository;
  inbox: InboxRepository;
  logger: Logger;
  /** Past this age an event can no longer be redelivered (the streams' history) nor needed again. */
  horizonMs: number;
  everyMs?: number;
}

// A day beyond the streams' history: a consumer replaying the oldest stored message still finds its id.
const MARGIN_MS = 24 * 3_600_000;

/** Prunes the inbox and the published outbox past the redelivery horizon, once an hour. */
export class Housekeeping {
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: HousekeepingOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs ?? 3_600_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async runOnce(): Promise<{ inbox: number; outbox: number }> {
    const { outbox, inbox, logger, horizonMs } = this.options;
    try {
      const pruned = {
        inbox: await inbox.prune(horizonMs + MARGIN_MS),
        outbox: await outbox.prunePublished(horizonMs + MARGIN_MS),
      };
      if (pruned.inbox + pruned.outbox > 0) logger.info(pruned, 'inbox and outbox pruned');
      return pruned;
    } catch (error) {
      logger.warn({ err: error }, 'pruning skipped: the database did not answer');
      return { inbox: 0, outbox: 0 };
    }
  }
}
