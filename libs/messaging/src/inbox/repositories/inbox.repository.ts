import type { Envelope } from '@app/contracts';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../repositories/unit-of-work';

export type InboxResult<R> = { duplicate: true } | { duplicate: false; result: R };

/**
 * The inbox of one service's schema: a consumed event's id is recorded in the same transaction as
 * its effect, so a redelivered event is recognised and has no second effect.
 */
export class InboxRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  async runOnce<R>(envelope: Envelope, effect: (tx: Transaction) => Promise<R>): Promise<InboxResult<R>> {
    return this.dataSource.transaction(async (tx) => {
      const inserted: unknown[] = await tx.query(
        `INSERT INTO "${this.schema}"."inbox" ("event_id", "type") VALUES ($1, $2)
         ON CONFLICT ("event_id") DO NOTHING RETURNING "event_id"`,
        [envelope.id, envelope.type],
      );
      if (inserted.length === 0) return { duplicate: true } as const;
      return { duplicate: false, result: await effect(tx) } as const;
    });
  }

  /** Whether this event was taken already (its effect committed). */
  async has(eventId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM "${this.schema}"."inbox" WHERE "event_id" = $1`,
      [eventId],
    );
    return rows.length > 0;
  }

  /**
   * Forgets events received before the redelivery horizon: past the consumed stream's history no
   * copy of them can arrive again, so their ids guard nothing.
   */
  async prune(olderThanMs: number): Promise<number> {
    const [row]: { deleted: number }[] = await this.dataSource.query(
      `WITH "gone" AS (
         DELETE FROM "${this.schema}"."inbox"
         WHERE "received_at" < now() - make_interval(secs => $1::double precision / 1000) RETURNING 1)
       SELECT count(*)::int AS "deleted" FROM "gone"`,
      [olderThanMs],
    );
    return row.deleted;
  }
}
