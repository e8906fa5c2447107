import type { DataSource, QueryRunner } from 'typeorm';
import type { Logger } from '@app/platform/logging/json-logger';

/**
 * Leadership among scheduler instances: a Postgres session-level advisory lock held on a connection
 * of its own. Whoever holds it leads; if that process dies or its connection breaks, Postgres frees
 * the lock and the next instance to try takes over. No clock, no lease to renew.
 */
export class LeaderLease {
  private holder?: QueryRunner;

  constructor(
    private readonly dataSource: DataSource,
    private readonly key: string,
    private readonly logger: Logger,
  ) {}

  get isLeader(): boolean {
    return this.holder !== undefined;
  }

  /** Confirms the lease is still held, or tries to take it. True while this instance leads. */
  async refresh(): Promise<boolean> {
    if (this.holder) {
      try {
        await this.holder.query('SELECT 1');
        return true;
      } catch (error) {
        this.logger.warn({ reason: (error as Error).message }, 'leadership lost: its connection broke');
        await this.drop();
      }
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"', [
        this.key,
      ])) as {
        locked: boolean;
      }[];
      if (!row.locked) {
        await runner.release();
        return false;
      }
      this.holder = runner;
      this.logger.info('this instance leads the schedule');
      return true;
    } catch (error) {
      await runner.release().catch(() => undefined);
      this.logger.warn(
        { reason: (error as Error).message },
        'leadership not taken: PostgreSQL did not answer',
      );
      return false;
    }
  }

  async release(): Promise<void> {
    if (!this.holder) return;
    await this.holder.query('SELECT pg_advisory_unlock(hashtext($1))', [this.key]).catch(() => undefined);
    await this.drop();
  }

  private async drop(): Promise<void> {
    const holder = this.holder;
    this.holder = undefined;
    await holder?.release().catch(() => undefined);
  }
}
