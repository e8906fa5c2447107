import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A database transaction as services see it: something to hand to repositories, nothing to query with. */
export type Transaction = EntityManager;

/** Runs work in one transaction, so services never open one (or import TypeORM) themselves. */
@Injectable()
export class UnitOfWork {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
