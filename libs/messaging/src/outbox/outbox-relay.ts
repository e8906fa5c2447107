import type { JetStreamClient } from '@nats-io/jetstream';
import type { DataSource } from 'typeorm';
import type { Logger } from '@app/platform/logging/json-logger';
import { publishEvent } from '../jetstream/publish-event';
import type { OutboxRepository } from '../repositories/outbox.repository';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  outbox: OutboxRepository;
  js: JetStreamClient;
  logger: Logger;
  /** Period of the sweep that recovers what a crash or a NATS outage left unpublished. */
  sweepMs: number;
  batchSize?: number;
}

/**
 * Publishes outbox rows to JetStream and marks them sent. `wake()` right after a commit keeps the
 * hot path free of polling delay; the sweep only catches up after failures.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.sweepMs);
    this.wake();
  }

  /** Schedules a pass; calls during a pass coalesce into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    try {
      for (;;) {
        const { published, complete } = await this.publishBatch(batchSize);
        if (!complete || published < batchSize) return;
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'outbox relay pass failed; the sweep will retry');
    }
  }

  private async publishBatch(batchSize: number): Promise<{ published: number; complete: boolean }> {
    const { dataSource, outbox, js, logger } = this.options;
    return dataSource.transaction(async (manager) => {
      const pending = await outbox.lockPending(manager, batchSize);
      // Sent together and acknowledged in order: one connection keeps the stream order of the outbox.
      const results = await Promise.allSettled(
        pending.map((event) => publishEvent(js, event.subject, event.envelope)),
      );
      const sent: string[] = [];
      let complete = true;
      for (const [index, result] of results.entries()) {
        const event = pending[index];
        if (result.status === 'fulfilled') {
          sent.push(event.id);
        } else {
          complete = false;
          const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
          logger.warn(
            { eventId: event.id, subject: event.subject, reason },
            'outbox event not published yet',
          );
          await outbox.markFailed(manager, event.id, reason);
        }
      }
      await outbox.markPublished(manager, sent);
      return { published: sent.length, complete };
    });
  }
}
