import type { Envelope, EventContract } from '@app/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { buildEnvelope } from '../jetstream/build-envelope';

export interface PendingEvent {
  id: string;
  subject: string;
  envelope: Envelope;
}

/** The transactional outbox of one service's schema. */
export class OutboxRepository {
  constructor(private readonly schema: string) {}

  /** Stores an event inside the caller's transaction: it exists exactly when the state change does. */
  async append<T>(
    manager: EntityManager,
    subject: string,
    contract: EventContract<T>,
    data: T,
    correlationId: string,
  ): Promise<Envelope<T>> {
    const envelope = buildEnvelope(contract, data, correlationId);
    await manager.query(
      `INSERT INTO "${this.schema}"."outbox" ("id", "subject", "type", "correlation_id", "envelope")
       VALUES ($1, $2, $3, $4, $5)`,
      [envelope.id, subject, envelope.type, correlationId, JSON.stringify(envelope)],
    );
    return envelope;
  }

  /**
   * Locks the oldest unpublished events for one relay pass; other relays skip them rather than wait,
   * so two instances never publish the same batch at the same time.
   */
  async lockPending(manager: EntityManager, limit: number): Promise<PendingEvent[]> {
    const rows: { id: string; subject: string; envelope: Envelope }[] = await manager.query(
      `SELECT "id", "subject", "envelope" FROM "${this.schema}"."outbox"
       WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows;
  }

  async markPublished(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      `UPDATE "${this.schema}"."outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`,
      [ids],
    );
  }

  async markFailed(manager: EntityManager, id: string, error: string): Promise<void> {
    await manager.query(
      `UPDATE "${this.schema}"."outbox" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`,
      [id, error.slice(0, 2000)],
    );
  }

  async countPending(dataSource: DataSource): Promise<number> {
    const [row]: { count: string }[] = await dataSource.query(
      `SELECT count(*) AS "count" FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL`,
    );
    return Number(row.count);
  }
}
