import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { assertBeforeDeadline } from '../requests/deadline';

/** A database transaction as services see it: something to hand to repositories, nothing to query with. */
export type Transaction = EntityManager;

/**
 * Runs work in one transaction, so services never open one (or import TypeORM) themselves: the one
 * unit of work of every service, provided from the runtime's DataSource (`messagingProviders`).
 */
@Injectable()
export class UnitOfWork {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * With the gateway's `deadline` (the request's `meta.deadline`), work that would commit after it is rolled back instead
   * (DeadlinePassedError): checked before the transaction begins and again right before COMMIT.
   */
  run<T>(work: (tx: Transaction) => Promise<T>, deadline?: number): Promise<T> {
    assertBeforeDeadline(deadline);
    return this.dataSource.transaction(async (tx) => {
      const result = await work(tx);
      assertBeforeDeadline(deadline);
      return result;
    });
  }
}
