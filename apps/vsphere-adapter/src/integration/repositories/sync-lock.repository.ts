import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

// The top bits keep these keys apart from the other advisory locks of the database: 'VS' for an
// offering's inventory synchronisation, 'VP' for the periodic pull of its VMs (the two may overlap).
export const LOCK_PURPOSES = { sync: 0x5653n, vmPull: 0x5650n } as const;
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
}
