import type { Envelope, EventContract, Topology } from '@app/contracts';
import type { OutboxRepository } from './repositories/outbox.repository';
import type { Transaction } from '../repositories/unit-of-work';
import type { OutboxRelay } from './outbox-relay';

/**
 * The one way a service writes an event: into its outbox, inside the caller's transaction (the
 * event exists exactly when the state change does), then `wake()` after the commit so the relay
 * publishes it without waiting for its sweep. Built once from the runtime at bootstrap
 * (`messagingProviders`); each service's typed event classes are thin wrappers over it.
 */
export class OutboxWriter {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
    private readonly topology: Topology,
  ) {}

  /** The namespaced subjects of this deployment. */
  get subjects(): Topology['subjects'] {
    return this.topology.subjects;
  }

  /**
   * Stores `data` as an event of `contract` on `subject`. `aggregate` (the correlation id unless
   * given) keys the publish order: the caller holds that aggregate's row lock.
   */
  append<T>(
    tx: Transaction,
    subject: string,
    contract: EventContract<T>,
    data: T,
    correlationId: string,
    aggregate: string = correlationId,
  ): Promise<Envelope<T>> {
    return this.outbox.append(tx, subject, contract, data, correlationId, aggregate);
  }

  /** Call after the commit: the relay publishes what was stored now rather than at its next sweep. */
  wake(): void {
    this.relay.wake();
  }
}
