import { QueryFailedError } from 'typeorm';
import { DuplicateRowError, ReferencedRowError } from '../domain/persistence-errors';

/** Runs a write and turns Postgres constraint violations into the domain's errors; anything else passes. */
export async function translateDbErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof QueryFailedError) {
      const driver = error.driverError as { code?: string; constraint?: string };
      if (driver.code === '23505') throw new DuplicateRowError(driver.constraint);
      if (driver.code === '23503') throw new ReferencedRowError(driver.constraint);
    }
    throw error;
  }
}

export interface PageRequest {
  page: number;
  pageSize: number;
}
