import type { Envelope, EventContract } from '@app/contracts';
import type { DataSource } from 'typeorm';
import { buildEnvelope } from '../../jetstream/build-envelope';
import type { Transaction } from '../../repositories/unit-of-work';

export interface PendingEvent {
  id: string;
  subject: string;
  envelope: Envelope;
  /** Events of one aggregate reach JetStream in the order they were committed. */
  aggregate: string;
  attempts: number;
}

export interface OutboxBacklog {
  count: number;
  oldestAgeSeconds: number;
  parked: number;
}

/**
 * The transactional outbox of one service's schema. Writes and the relay's reads run in the
 * caller's transaction; the backlog and pruning, on their own, on `dataSource`.
 */
export class OutboxRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  /**
   * Stores an event inside the caller's transaction: it exists exactly when the state change does.
   * `aggregate` (the order's uuid unless given) keys the publish order: the caller holds that
   * aggregate's row lock, so its events' `seq` follow their commit order.
   */
  async append<T>(
    tx: Transaction,
    subject: string,
    contract: EventContract<T>,
    data: T,
    correlationId: string,
    aggregate: string = correlationId,
  ): Promise<Envelope<T>> {
    const envelope = buildEnvelope(contract, data, correlationId);
    await tx.query(
      `INSERT INTO "${this.schema}"."outbox" ("id", "subject", "type", "correlation_id", "aggregate", "envelope")
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [envelope.id, subject, envelope.type, correlationId, aggregate, JSON.stringify(envelope)],
    );
    return envelope;
  }

  /**
   * Takes the relay's turn for this schema until the transaction ends. One relay publishes at a
   * time, whatever the number of instances, so no instance can overtake another's earlier events;
   * a pass that finds the turn taken comes back a moment later.
   */
  async takeRelayTurn(tx: Transaction): Promise<boolean> {
    const [row]: { locked: boolean }[] = await tx.query(
      `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS "locked"`,
      [`outbox-relay:${this.schema}`],
    );
    return row.locked;
  }

  /**
   * The oldest unpublished, unparked events in commit order, leaving out every aggregate whose
   * earliest waiting event is still in its backoff: a blocked aggregate neither overtakes itself nor
   * fills the batch while the others wait.
   */
  async pending(tx: Transaction, limit: number): Promise<PendingEvent[]> {
    return tx.query(
      `SELECT o."id", o."subject", o."envelope", o."aggregate", o."attempts"
       FROM "${this.schema}"."outbox" o
       WHERE o."published_at" IS NULL AND o."parked_at" IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM "${this.schema}"."outbox" b
           WHERE b."aggregate" = o."aggregate" AND b."published_at" IS NULL AND b."parked_at" IS NULL
             AND b."seq" <= o."seq" AND b."next_attempt_at" > now())
       ORDER BY o."seq" LIMIT $1`,
      [limit],
    );
  }

  async markPublished(tx: Transaction, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.query(
      `UPDATE "${this.schema}"."outbox" SET "published_at" = now(), "next_attempt_at" = NULL
       WHERE "id" = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Records a failed publish; `counted` is false for failures while NATS was away (not the event's fault). */
  async markFailed(
    tx: Transaction,
    id: string,
    error: string,
    retryInMs: number,
    counted: boolean,
  ): Promise<void> {
    await tx.query(
      `UPDATE "${this.schema}"."outbox"
       SET "attempts" = "attempts" + $4, "last_error" = $2,
           "next_attempt_at" = now() + make_interval(secs => $3::double precision / 1000)
       WHERE "id" = $1`,
      [id, error.slice(0, 2000), retryInMs, counted ? 1 : 0],
    );
  }

  /** Sets an event aside for good: it stays in the table, with its reason, for an operator. */
  async park(tx: Transaction, id: string, reason: string): Promise<void> {
    await tx.query(
      `UPDATE "${this.schema}"."outbox"
       SET "parked_at" = now(), "last_error" = $2, "attempts" = "attempts" + 1 WHERE "id" = $1`,
      [id, reason.slice(0, 2000)],
    );
  }

  async countPending(): Promise<number> {
    return (await this.backlog()).count;
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row]: { count: string; oldest: number | null; parked: string }[] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE "parked_at" IS NULL) AS "count",
              extract(epoch FROM now() - min("created_at") FILTER (WHERE "parked_at" IS NULL))::float8 AS "oldest",
              count(*) FILTER (WHERE "parked_at" IS NOT NULL) AS "parked"
       FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL`,
    );
    return { count: Number(row.count), oldestAgeSeconds: row.oldest ?? 0, parked: Number(row.parked) };
  }

  /** Deletes published events older than the horizon: JetStream holds them from then on. */
  async prunePublished(olderThanMs: number): Promise<number> {
    const [row]: { deleted: number }[] = await this.dataSource.query(
      `WITH "gone" AS (
         DELETE FROM "${this.schema}"."outbox"
         WHERE "published_at" < now() - make_interval(secs => $1::double precision / 1000) RETURNING 1)
       SELECT count(*)::int AS "deleted" FROM "gone"`,
      [olderThanMs],
    );
    return row.deleted;
  }
}
