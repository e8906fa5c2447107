import type { RequestReply } from '@app/contracts';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../repositories/unit-of-work';

/** Whose key: the IETF httpapi draft's keys are the client's, so they are kept per user. */
export interface KeyId {
  userUuid: string;
  key: string;
}

/** A key as another request left it: its request's fingerprint, and the first answer once stored. */
export interface HeldKey {
  fingerprint: string;
  reply: RequestReply<unknown> | null;
}

/**
 * The `Idempotency-Key`s of the creating POSTs of one service's schema (`<schema>.idempotency_keys`:
 * user_uuid, key, fingerprint, claim, locked_until, reply, created), per user.
 */
export class IdempotencyKeyRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  private get table(): string {
    return `"${this.schema}"."idempotency_keys"`;
  }

  /**
   * Takes the key for one request, in one statement: a new key, one whose answer is older than
   * `keptMs`, or one whose holder let its hold lapse (it crashed: it committed nothing, see
   * `answer`). Answers whether this request holds it now.
   */
  async claim(
    id: KeyId,
    fingerprint: string,
    claim: string,
    holdMs: number,
    keptMs: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO ${this.table} AS k (user_uuid, key, fingerprint, claim, locked_until)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
       ON CONFLICT (user_uuid, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
         claim = EXCLUDED.claim, locked_until = EXCLUDED.locked_until, reply = NULL, created = now()
       WHERE k.created < now() - $6 * interval '1 millisecond'
          OR (k.reply IS NULL AND k.locked_until < now())
       RETURNING 1`,
      [id.userUuid, id.key, fingerprint, claim, holdMs, keptMs],
    );
    return rows.length === 1;
  }

  async getByKey(id: KeyId): Promise<HeldKey | null> {
    const rows: HeldKey[] = await this.dataSource.query(
      `SELECT fingerprint, reply FROM ${this.table} WHERE user_uuid = $1 AND key = $2`,
      [id.userUuid, id.key],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores the first answer in the transaction of what the request made, if `claim` still holds
   * the key: a holder whose hold lapsed and was taken over stores nothing (and its work is rolled
   * back with it), so one key never makes two things.
   */
  async answer(tx: Transaction, id: KeyId, claim: string, reply: RequestReply<unknown>): Promise<boolean> {
    // Counted in a SELECT: TypeORM answers a bare UPDATE with a driver-shaped pair.
    const rows: { n: number }[] = await tx.query(
      `WITH stored AS (
         UPDATE ${this.table} SET reply = $4
         WHERE user_uuid = $1 AND key = $2 AND claim = $3 AND reply IS NULL RETURNING 1)
       SELECT count(*)::int AS n FROM stored`,
      [id.userUuid, id.key, claim, JSON.stringify(reply)],
    );
    return rows[0].n === 1;
  }

  /** Lets go of a key whose request stored nothing (refused, or failed), so a retry runs afresh. */
  async release(id: KeyId, claim: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${this.table} WHERE user_uuid = $1 AND key = $2 AND claim = $3 AND reply IS NULL`,
      [id.userUuid, id.key, claim],
    );
  }

  /** Drops keys older than `keptMs`, so they do not pile up. */
  async deleteOlderThan(keptMs: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${this.table} WHERE created < now() - $1 * interval '1 millisecond'`,
      [keptMs],
    );
  }
}
