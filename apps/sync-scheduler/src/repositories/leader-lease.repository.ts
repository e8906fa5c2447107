import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { LOGGER } from '@app/messaging';
import type { Logger } from '@app/platform/logging/json-logger';

/**
 * The leader leases this instance holds, one per kind of work (its key): each a Postgres
 * session-level advisory lock held on a connection of its own. Whoever holds a key's lock leads
 * that work; if that process dies or its connection breaks, Postgres frees the lock and the next
 * instance to try takes over. No clock, no lease to renew.
 */
@Injectable()
export class LeaderLeaseRepository {
  private readonly holders = new Map<string, QueryRunner>();

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Confirms the lease of `key` is still held, or tries to take it. True while this instance leads. */
  async refresh(key: string): Promise<boolean> {
    const held = this.holders.get(key);
    if (held) {
      try {
        await held.query('SELECT 1');
        return true;
      } catch (error) {
        this.logger.warn({ key, reason: (error as Error).message }, 'leadership lost: its connection broke');
        await this.drop(key);
      }
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"', [key])) as {
        locked: boolean;
      }[];
      if (!row.locked) {
        await runner.release();
        return false;
      }
      this.holders.set(key, runner);
      this.logger.info({ key }, 'this instance leads the schedule');
      return true;
    } catch (error) {
      await runner.release().catch(() => undefined);
      this.logger.warn(
        { key, reason: (error as Error).message },
        'leadership not taken: PostgreSQL did not answer',
      );
      return false;
    }
  }

  async release(key: string): Promise<void> {
    const held = this.holders.get(key);
    if (!held) return;
    await held.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    await this.drop(key);
  }

  private async drop(key: string): Promise<void> {
    const held = this.holders.get(key);
    this.holders.delete(key);
    await held?.release().catch(() => undefined);
  }
}
