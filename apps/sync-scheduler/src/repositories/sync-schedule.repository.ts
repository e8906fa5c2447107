import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

@Injectable()
export class SyncScheduleRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Claims this interval's request for an offering: true (and the time recorded) only when it was
   * never requested or its last request is at least `intervalMs` old. The conditional upsert is what
   * makes a request once per interval, whoever leads and however often it ticks.
   */
  async claimDue(manager: EntityManager, offeringUuid: string, intervalMs: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "scheduler"."sync_schedule" ("offering_uuid", "last_requested_at") VALUES ($1, now())
       ON CONFLICT ("offering_uuid") DO UPDATE
         SET "last_requested_at" = now(), "requests" = "sync_schedule"."requests" + 1
         WHERE "sync_schedule"."last_requested_at" <= now() - make_interval(secs => $2::double precision / 1000)
       RETURNING 1`,
      [offeringUuid, intervalMs],
    );
    return rows.length === 1;
  }

  /** Forgets offerings that are no longer targets (archived or gone). */
  async keepOnly(offeringUuids: string[]): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM "scheduler"."sync_schedule" WHERE NOT ("offering_uuid" = ANY($1::uuid[]))`,
      [offeringUuids],
    );
  }
}
