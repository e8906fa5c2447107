import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The marketplace order flow: orders name their plan, author, reviewers and cost; resources keep
 * their plan, limits, cost, description, error and the backend's own reference (the VM's moref).
 * Lists filter by project, offering, resource and state, so each gets an index. At most one order
 * per resource is pending at a time (Waldur checks it with a query; the index closes the race).
 *
 * Orders and resources already reference offerings; their project is the next migration's.
 */
export class OrderFlow1764480000040 implements MigrationInterface {
  name = 'OrderFlow1764480000040';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."orders"
      ADD COLUMN "plan_uuid" uuid REFERENCES "marketplace"."plans" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "created_by" uuid REFERENCES "marketplace"."users" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "cost" numeric(22, 2),
      ADD COLUMN "consumer_reviewed_by" uuid REFERENCES "marketplace"."users" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "consumer_reviewed_at" timestamptz,
      ADD COLUMN "provider_reviewed_by" uuid REFERENCES "marketplace"."users" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "provider_reviewed_at" timestamptz`);
    await runner.query(`ALTER TABLE "marketplace"."resources"
      ADD COLUMN "description" text NOT NULL DEFAULT '',
      ADD COLUMN "plan_uuid" uuid REFERENCES "marketplace"."plans" ("uuid") ON DELETE SET NULL,
      ADD COLUMN "attributes" jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN "limits" jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN "cost" numeric(22, 2),
      ADD COLUMN "error_message" text NOT NULL DEFAULT '',
      ADD COLUMN "backend_ref" text`);
    const indexes: [string, string, string][] = [
      ['orders_project_created_idx', 'orders', '"project_uuid", "created" DESC'],
      ['orders_offering_created_idx', 'orders', '"offering_uuid", "created" DESC'],
      ['orders_resource_idx', 'orders', '"resource_uuid"'],
      ['orders_created_idx', 'orders', '"created" DESC'],
      ['resources_project_created_idx', 'resources', '"project_uuid", "created" DESC'],
      ['resources_offering_created_idx', 'resources', '"offering_uuid", "created" DESC'],
      ['resources_created_idx', 'resources', '"created" DESC'],
    ];
    for (const [name, table, columns] of indexes)
      await runner.query(`CREATE INDEX "${name}" ON "marketplace"."${table}" (${columns})`);
    await runner.query(`CREATE UNIQUE INDEX "orders_one_pending_per_resource_idx"
      ON "marketplace"."orders" ("resource_uuid")
      WHERE "state" IN ('pending-consumer', 'pending-provider', 'executing')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const name of [
      'orders_one_pending_per_resource_idx',
      'resources_created_idx',
      'resources_offering_created_idx',
      'resources_project_created_idx',
      'orders_created_idx',
      'orders_resource_idx',
      'orders_offering_created_idx',
      'orders_project_created_idx',
    ])
      await runner.query(`DROP INDEX "marketplace"."${name}"`);
    await runner.query(`ALTER TABLE "marketplace"."resources"
      DROP COLUMN "backend_ref", DROP COLUMN "error_message", DROP COLUMN "cost", DROP COLUMN "limits",
      DROP COLUMN "attributes", DROP COLUMN "plan_uuid", DROP COLUMN "description"`);
    await runner.query(`ALTER TABLE "marketplace"."orders"
      DROP COLUMN "provider_reviewed_at", DROP COLUMN "provider_reviewed_by",
      DROP COLUMN "consumer_reviewed_at", DROP COLUMN "consumer_reviewed_by",
      DROP COLUMN "cost", DROP COLUMN "created_by", DROP COLUMN "plan_uuid"`);
  }
}
