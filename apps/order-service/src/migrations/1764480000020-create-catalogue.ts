import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue: offerings gain what a provider describes (description, category, terms, state),
 * and plans with a price per component. Offerings made before providers existed (no customer)
 * stay as they are; new ones always name their provider.
 */
export class CreateCatalogue1764480000020 implements MigrationInterface {
  name = 'CreateCatalogue1764480000020';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."offerings"
      ADD COLUMN "description" text NOT NULL DEFAULT '',
      ADD COLUMN "category" text NOT NULL DEFAULT '',
      ADD COLUMN "terms_of_service" text NOT NULL DEFAULT '',
      ADD COLUMN "state" text NOT NULL DEFAULT 'Draft'
        CHECK ("state" IN ('Draft', 'Active', 'Paused', 'Archived')),
      ADD COLUMN "modified" timestamptz NOT NULL DEFAULT now()`);
    // The backbone's offerings took orders before states existed: they stay orderable.
    await runner.query(`UPDATE "marketplace"."offerings" SET "state" = 'Active'`);
    await runner.query(
      `CREATE INDEX "offerings_customer_idx" ON "marketplace"."offerings" ("customer_uuid")`,
    );
    await runner.query(
      `CREATE INDEX "offerings_state_type_idx" ON "marketplace"."offerings" ("state", "type")`,
    );
    await runner.query(`CREATE TABLE "marketplace"."plans" (
      "uuid" uuid PRIMARY KEY,
      "offering_uuid" uuid NOT NULL REFERENCES "marketplace"."offerings" ("uuid") ON DELETE CASCADE,
      "name" text NOT NULL,
      "archived" boolean NOT NULL DEFAULT false,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "plans_offering_idx" ON "marketplace"."plans" ("offering_uuid")`);
    await runner.query(`CREATE TABLE "marketplace"."plan_prices" (
      "plan_uuid" uuid NOT NULL REFERENCES "marketplace"."plans" ("uuid") ON DELETE CASCADE,
      "component_type" text NOT NULL,
      "price" numeric(16, 4) NOT NULL CHECK ("price" >= 0),
      PRIMARY KEY ("plan_uuid", "component_type")
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "marketplace"."plan_prices"`);
    await runner.query(`DROP TABLE "marketplace"."plans"`);
    await runner.query(`DROP INDEX "marketplace"."offerings_state_type_idx"`);
    await runner.query(`DROP INDEX "marketplace"."offerings_customer_idx"`);
    await runner.query(`ALTER TABLE "marketplace"."offerings"
      DROP COLUMN "modified", DROP COLUMN "state", DROP COLUMN "terms_of_service",
      DROP COLUMN "category", DROP COLUMN "description"`);
  }
}
