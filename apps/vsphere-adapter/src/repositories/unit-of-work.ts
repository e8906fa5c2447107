import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** An open transaction, handed to repositories (and the outbox) by services that never open one. */
export type Tx = EntityManager;

/** Opens the transactions services need: the work runs in one, committed when it returns. */
@Injectable()
export class UnitOfWork {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
