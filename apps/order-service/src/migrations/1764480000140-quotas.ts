import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quota limits of organisations and projects (Waldur's `vcpu`, `ram`, `storage`, `max_instances`;
 * a missing row is no limit), and whether a resource's VM was found gone from vCenter (it then
 * uses nothing). Usage is not stored: it is summed from resources and pending orders under the
 * project's and organisation's row locks, so it cannot drift from what it counts.
 */
export class Quotas1764480000140 implements MigrationInterface {
  name = 'Quotas1764480000140';

  async up(runner: QueryRunner): Promise<void> {
    for (const [table, owner, ownerTable] of [
      ['customer_quotas', 'customer_uuid', 'customers'],
      ['project_quotas', 'project_uuid', 'projects'],
    ])
      await runner.query(`CREATE TABLE "marketplace"."${table}" (
        "${owner}" uuid NOT NULL REFERENCES "marketplace"."${ownerTable}" ("uuid") ON DELETE CASCADE,
        "name" text NOT NULL CHECK ("name" IN ('vcpu', 'ram', 'storage', 'max_instances')),
        "limit" bigint NOT NULL CHECK ("limit" >= 0),
        PRIMARY KEY ("${owner}", "name"))`);
    await runner.query(
      `ALTER TABLE "marketplace"."resources" ADD COLUMN "backend_gone" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."resources" DROP COLUMN "backend_gone"`);
    await runner.query(`DROP TABLE "marketplace"."project_quotas"`);
    await runner.query(`DROP TABLE "marketplace"."customer_quotas"`);
  }
}
