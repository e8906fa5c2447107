import type { EventContract, Topology } from '@app/contracts';
import type { OutboxRelay, OutboxRepository } from '@app/messaging';
import type { Tx } from '../repositories/unit-of-work';

/**
 * The adapter's outbox as services use it: an event is stored in the caller's transaction (it
 * exists exactly when the state change does), and `wake()` after the commit sends it at once.
 */
export class EventOutbox {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
    private readonly topology: Topology,
  ) {}

  get subjects(): Topology['subjects'] {
    return this.topology.subjects;
  }

  /** Stores `data` as an event of `contract` on `subject`; `aggregate` orders its publishing. */
  async append<T>(
    tx: Tx,
    subject: string,
    contract: EventContract<T>,
    data: T,
    aggregate: string,
  ): Promise<void> {
    await this.outbox.append(tx, subject, contract, data, aggregate, aggregate);
  }

  /** Call after the commit: the relay publishes what was stored without waiting for its sweep. */
  wake(): void {
    this.relay.wake();
  }
}
