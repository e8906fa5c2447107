import type { DataSource, EntityManager } from 'typeorm';
import { queryPrepared, type PreparedStatement } from '@app/platform/persistence/prepared-query';
import { DuplicateRowError, ReferencedRowError } from '../../identity';

export type { PreparedStatement };

/**
 * A named statement of the order path (see queryPrepared), with constraint violations turned into
 * the domain's errors, as `translateDbErrors` does for TypeORM's.
 */
export async function runPrepared<R>(
  source: EntityManager | DataSource,
  statement: PreparedStatement,
  values: unknown[],
): Promise<R[]> {
  try {
    return await queryPrepared<R>(source, statement, values);
  } catch (error) {
    const driver = error as { code?: string; constraint?: string };
    if (driver.code === '23505') throw new DuplicateRowError(driver.constraint);
    if (driver.code === '23503') throw new ReferencedRowError(driver.constraint);
    throw error;
  }
}
