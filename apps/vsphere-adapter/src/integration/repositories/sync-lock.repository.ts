import { Inject, Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';

// The top bits keep these keys apart from the other advisory locks of the database: 'VS' for an
// offering's inventory synchronisation, 'VP' for the periodic pull of its VMs (the two may overlap),
// 'VW' for the live subscription to its vCenter (held for as long as the subscription runs).
export const LOCK_PURPOSES = { sync: 0x5653n, vmPull: 0x5650n, vmWatch: 0x5657n } as const;
export type LockPurpose = keyof typeof LOCK_PURPOSES;

/** The advisory-lock key of an offering's work of `purpose`: a prefix and 48 bits of its uuid. Pure. */
export function syncLockKey(offeringUuid: string, purpose: LockPurpose = 'sync'): string {
  const prefix = LOCK_PURPOSES[purpose] << 48n;
  return (prefix | BigInt(`0x${offeringUuid.replace(/-/g, '').slice(0, 12)}`)).toString();
}

export type LockedRun<T> = { acquired: false } | { acquired: true; result: T };

/**
 * One synchronisation (or VM pull) per offering at a time across every adapter instance: a Postgres advisory
 * lock held, on a connection of its own, for as long as the work runs. Postgres frees it if the
 * process dies.
 */
@Injectable()
export class SyncLockRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Runs `work` holding the offering's lock, or returns at once when another run holds it. */
  async withLock<T>(
    offeringUuid: string,
    work: () => Promise<T>,
    purpose: LockPurpose = 'sync',
  ): Promise<LockedRun<T>> {
    const key = syncLockKey(offeringUuid, purpose);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1::bigint) AS "locked"', [key])) as {
        locked: boolean;
      }[];
      if (!row.locked) return { acquired: false };
      try {
        return { acquired: true, result: await work() };
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Like withLock, for work that runs until it is stopped (a lease): the lock is held on a
   * connection of its own, outside the pool (a lease per offering must not starve the pool of the
   * short queries), checked every `checkMs`; `lost` fires when the check fails (Postgres has freed
   * the lock and another instance may hold it by now), after which the work must end.
   */
  async withLease<T>(
    offeringUuid: string,
    purpose: LockPurpose,
    checkMs: number,
    work: (lost: AbortSignal) => Promise<T>,
  ): Promise<LockedRun<T>> {
    const key = syncLockKey(offeringUuid, purpose);
    const options = this.dataSource.options as PostgresDataSourceOptions;
    const client = new Client({ connectionString: options.url, application_name: options.applicationName });
    const lost = new AbortController();
    const lose = (error: unknown) =>
      lost.abort(new Error('the lease connection to Postgres failed', { cause: error }));
    client.on('error', lose);
    await client.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS "locked"',
        [key],
      );
      if (!rows[0].locked) return { acquired: false };
      timer = setInterval(() => void client.query('SELECT 1').catch(lose), checkMs);
      timer.unref();
      return { acquired: true, result: await work(lost.signal) };
    } finally {
      clearInterval(timer);
      // Closing the connection frees the lock.
      await client.end().catch(() => undefined);
    }
  }
}
