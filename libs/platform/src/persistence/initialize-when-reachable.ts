import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/json-logger';
import { isDatabaseUnavailable } from './unavailable-database';

/**
 * Opens `dataSource`, waiting for Postgres while it is away rather than failing: a service started
 * during a database outage comes up when the database does, so start order and outages do not
 * matter. Any other error (bad credentials, no such database) is thrown at once.
 */
export async function initializeWhenReachable(dataSource: DataSource, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.initialize();
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const delayMs = Math.min(500 * attempt, 5_000);
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error), delayMs },
        'waiting for PostgreSQL',
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
