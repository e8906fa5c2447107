import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A monthly cost quota (`cost`, whole currency units) beside the hardware ones. */
export class CostQuota1764480000142 implements MigrationInterface {
  name = 'CostQuota1764480000142';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['customer_quotas', 'project_quotas'])
      await runner.query(`ALTER TABLE "marketplace"."${table}" DROP CONSTRAINT "${table}_name_check",
        ADD CONSTRAINT "${table}_name_check"
          CHECK ("name" IN ('vcpu', 'ram', 'storage', 'max_instances', 'cost'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['customer_quotas', 'project_quotas']) {
      await runner.query(`DELETE FROM "marketplace"."${table}" WHERE "name" = 'cost'`);
      await runner.query(`ALTER TABLE "marketplace"."${table}" DROP CONSTRAINT "${table}_name_check",
        ADD CONSTRAINT "${table}_name_check" CHECK ("name" IN ('vcpu', 'ram', 'storage', 'max_instances'))`);
    }
  }
}
