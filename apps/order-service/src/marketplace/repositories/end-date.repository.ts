import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TERMINAL_ORDER_STATES } from '@app/contracts';

export interface EndDateRow {
  uuid: string;
  endDate: Date;
  warnings: number[];
}

/** Resources' end dates: setting them, and finding what is due for a warning or a termination. */
@Injectable()
export class EndDateRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A new end date (or none) starts its warnings and stop requests afresh. */
  async setEndDate(tx: EntityManager, uuid: string, endDate: Date | null, by: string | null): Promise<void> {
    await tx.query(
      `UPDATE "marketplace"."resources" SET "end_date" = $2, "end_date_requested_by" = $3,
         "end_date_warnings" = '[]', "end_date_stop_requested_at" = NULL, "modified" = now()
       WHERE "uuid" = $1`,
      [uuid, endDate, by],
    );
  }

  /** The resource's end date and the warnings given, read under its row lock in `tx`. */
  async lock(tx: EntityManager, uuid: string): Promise<EndDateRow | null> {
    const rows: { uuid: string; end_date: Date | null; end_date_warnings: number[]; state: string }[] =
      await tx.query(
        `SELECT "uuid", "end_date", "end_date_warnings", "state" FROM "marketplace"."resources"
         WHERE "uuid" = $1 FOR UPDATE`,
        [uuid],
      );
    const row = rows[0];
    if (!row || row.end_date === null || row.state === 'Terminated') return null;
    return { uuid: row.uuid, endDate: row.end_date, warnings: row.end_date_warnings };
  }

  async addWarnings(tx: EntityManager, uuid: string, leads: number[]): Promise<void> {
    await tx.query(
      `UPDATE "marketplace"."resources" SET "end_date_warnings" = "end_date_warnings" || $2::jsonb,
         "modified" = now() WHERE "uuid" = $1`,
      [uuid, JSON.stringify(leads)],
    );
  }

  /** Resources whose end date is within `maxLeadS` of `now` (or past), not yet gone. */
  async warningCandidates(now: Date, maxLeadS: number): Promise<string[]> {
    const rows: { uuid: string }[] = await this.dataSource.query(
      `SELECT "uuid" FROM "marketplace"."resources"
       WHERE "end_date" IS NOT NULL AND "state" <> 'Terminated'
         AND "end_date" - make_interval(secs => $2) <= $1`,
      [now, maxLeadS],
    );
    return rows.map((row) => row.uuid);
  }

  /** Resources whose end date has come, that a Terminate may be ordered for (OK or Erred, no pending order). */
  async dueForTermination(now: Date): Promise<{ uuid: string; stopRequestedAt: Date | null }[]> {
    const rows: { uuid: string; end_date_stop_requested_at: Date | null }[] = await this.dataSource.query(
      `SELECT r."uuid", r."end_date_stop_requested_at" FROM "marketplace"."resources" r
       WHERE r."end_date" IS NOT NULL AND r."end_date" <= $1 AND r."state" IN ('OK', 'Erred')
         AND NOT EXISTS (SELECT 1 FROM "marketplace"."orders" o
           WHERE o."resource_uuid" = r."uuid" AND NOT (o."state" = ANY($2::text[])))
       ORDER BY r."end_date"`,
      [now, [...TERMINAL_ORDER_STATES]],
    );
    return rows.map((row) => ({ uuid: row.uuid, stopRequestedAt: row.end_date_stop_requested_at }));
  }

  async markStopRequested(uuid: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE "marketplace"."resources" SET "end_date_stop_requested_at" = $2 WHERE "uuid" = $1`,
      [uuid, at],
    );
  }
}
