import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * End dates (Waldur's `end_date` and `end_date_requested_by` on a resource): which warnings before
 * it were already given (their lead times in seconds, so each is given once), and when the VM was
 * last asked to stop so that its Terminate could run. An offering's provider limits how far ahead
 * an end date may be (Waldur's `max_resource_termination_offset_in_days`).
 */
export class EndDates1764480000141 implements MigrationInterface {
  name = 'EndDates1764480000141';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."resources"
      ADD COLUMN "end_date" timestamptz NULL,
      ADD COLUMN "end_date_requested_by" uuid NULL REFERENCES "marketplace"."users" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "end_date_warnings" jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN "end_date_stop_requested_at" timestamptz NULL`);
    await runner.query(`CREATE INDEX "resources_end_date_idx" ON "marketplace"."resources" ("end_date")
      WHERE "end_date" IS NOT NULL AND "state" <> 'Terminated'`);
    await runner.query(`ALTER TABLE "marketplace"."offerings"
      ADD COLUMN "max_resource_termination_offset_in_days" integer NULL
        CHECK ("max_resource_termination_offset_in_days" > 0)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE "marketplace"."offerings" DROP COLUMN "max_resource_termination_offset_in_days"`,
    );
    await runner.query(`DROP INDEX "marketplace"."resources_end_date_idx"`);
    await runner.query(`ALTER TABLE "marketplace"."resources"
      DROP COLUMN "end_date_stop_requested_at", DROP COLUMN "end_date_warnings",
      DROP COLUMN "end_date_requested_by", DROP COLUMN "end_date"`);
  }
}
