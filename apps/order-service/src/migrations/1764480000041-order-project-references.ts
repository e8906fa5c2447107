import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders and resources reference their project. Before this, the backbone path took any project
 * uuid: the constraint is checked for every new row, and for the existing ones only where none of
 * them names a project that does not exist (`NOT VALID` otherwise: an operator removes or re-homes
 * those orders, then runs `VALIDATE CONSTRAINT`). A project with orders or resources is not deleted.
 */
export class OrderProjectReferences1764480000041 implements MigrationInterface {
  name = 'OrderProjectReferences1764480000041';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['orders', 'resources']) {
      await runner.query(`ALTER TABLE "marketplace"."${table}" ADD CONSTRAINT "${table}_project_fk"
        FOREIGN KEY ("project_uuid") REFERENCES "marketplace"."projects" ("uuid") ON DELETE RESTRICT NOT VALID`);
      const rows = (await runner.query(
        `SELECT count(*)::int AS "count" FROM "marketplace"."${table}" x
         WHERE NOT EXISTS (SELECT 1 FROM "marketplace"."projects" p WHERE p."uuid" = x."project_uuid")`,
      )) as { count: number }[];
      if (rows[0].count === 0)
        await runner.query(`ALTER TABLE "marketplace"."${table}" VALIDATE CONSTRAINT "${table}_project_fk"`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['orders', 'resources'])
      await runner.query(`ALTER TABLE "marketplace"."${table}" DROP CONSTRAINT "${table}_project_fk"`);
  }
}
