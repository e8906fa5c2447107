import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a resource's limits were last taken from its backend's own report (a VmChanged): an older
 * report redelivered after a newer one is ignored, so the limits never go back in time.
 */
export class ResourceLimitsObserved1764480000050 implements MigrationInterface {
  name = 'ResourceLimitsObserved1764480000050';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE "marketplace"."resources" ADD COLUMN "limits_observed_at" timestamptz NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."resources" DROP COLUMN "limits_observed_at"`);
  }
}
