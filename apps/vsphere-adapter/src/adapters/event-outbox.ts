import { Injectable } from '@nestjs/common';
import type { EventContract, Topology } from '@app/contracts';
import { OutboxWriter, type Transaction } from '@app/messaging';

/**
 * The adapter's events as services write them: a thin wrapper over the one outbox writer, keyed by
 * the aggregate (which is also the correlation id); `wake()` after the commit sends them at once.
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly writer: OutboxWriter) {}

  get subjects(): Topology['subjects'] {
    return this.writer.subjects;
  }

  /** Stores `data` as an event of `contract` on `subject`; `aggregate` orders its publishing. */
  async append<T>(
    tx: Transaction,
    subject: string,
    contract: EventContract<T>,
    data: T,
    aggregate: string,
  ): Promise<void> {
    await this.writer.append(tx, subject, contract, data, aggregate, aggregate);
  }

  /** Call after the commit: the relay publishes what was stored without waiting for its sweep. */
  wake(): void {
    this.writer.wake();
  }
}
