import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users, API tokens (sha256 of the key only), customers, projects and role grants. A customer that
 * owns offerings is a service provider: offerings gain a nullable owner, since the backbone's
 * offerings predate customers.
 */
export class CreateIdentity1764480000002 implements MigrationInterface {
  name = 'CreateIdentity1764480000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "marketplace"."users" (
      "uuid" uuid PRIMARY KEY,
      "username" varchar(150) NOT NULL UNIQUE,
      "full_name" varchar(100) NOT NULL DEFAULT '',
      "email" varchar(254) NOT NULL DEFAULT '',
      "is_staff" boolean NOT NULL DEFAULT false,
      "is_active" boolean NOT NULL DEFAULT true,
      "date_joined" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "marketplace"."api_tokens" (
      "key_hash" char(64) PRIMARY KEY,
      "user_uuid" uuid NOT NULL REFERENCES "marketplace"."users" ("uuid") ON DELETE CASCADE,
      "created" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz,
      "revoked_at" timestamptz
    )`);
    await runner.query(`CREATE INDEX "api_tokens_user_idx" ON "marketplace"."api_tokens" ("user_uuid")`);
    await runner.query(`CREATE TABLE "marketplace"."customers" (
      "uuid" uuid PRIMARY KEY,
      "name" varchar(150) NOT NULL,
      "native_name" varchar(160) NOT NULL DEFAULT '',
      "abbreviation" varchar(12) NOT NULL DEFAULT '',
      "email" varchar(75) NOT NULL DEFAULT '',
      "phone_number" varchar(255) NOT NULL DEFAULT '',
      "description" varchar(2000) NOT NULL DEFAULT '',
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "marketplace"."projects" (
      "uuid" uuid PRIMARY KEY,
      "customer_uuid" uuid NOT NULL REFERENCES "marketplace"."customers" ("uuid") ON DELETE RESTRICT,
      "name" varchar(500) NOT NULL,
      "description" varchar(2000) NOT NULL DEFAULT '',
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "projects_customer_idx" ON "marketplace"."projects" ("customer_uuid")`);
    await runner.query(`CREATE TABLE "marketplace"."customer_permissions" (
      "uuid" uuid PRIMARY KEY,
      "customer_uuid" uuid NOT NULL REFERENCES "marketplace"."customers" ("uuid") ON DELETE CASCADE,
      "user_uuid" uuid NOT NULL REFERENCES "marketplace"."users" ("uuid") ON DELETE CASCADE,
      "role" text NOT NULL CHECK ("role" IN ('CUSTOMER.OWNER')),
      "created" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("customer_uuid", "user_uuid", "role")
    )`);
    await runner.query(
      `CREATE INDEX "customer_permissions_user_idx" ON "marketplace"."customer_permissions" ("user_uuid")`,
    );
    await runner.query(`CREATE TABLE "marketplace"."project_permissions" (
      "uuid" uuid PRIMARY KEY,
      "project_uuid" uuid NOT NULL REFERENCES "marketplace"."projects" ("uuid") ON DELETE CASCADE,
      "user_uuid" uuid NOT NULL REFERENCES "marketplace"."users" ("uuid") ON DELETE CASCADE,
      "role" text NOT NULL CHECK ("role" IN ('PROJECT.MANAGER', 'PROJECT.ADMIN', 'PROJECT.MEMBER')),
      "created" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("project_uuid", "user_uuid", "role")
    )`);
    await runner.query(
      `CREATE INDEX "project_permissions_user_idx" ON "marketplace"."project_permissions" ("user_uuid")`,
    );
    await runner.query(
      `ALTER TABLE "marketplace"."offerings" ADD COLUMN "customer_uuid" uuid REFERENCES "marketplace"."customers" ("uuid") ON DELETE RESTRICT`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."offerings" DROP COLUMN "customer_uuid"`);
    for (const table of [
      'project_permissions',
      'customer_permissions',
      'projects',
      'customers',
      'api_tokens',
      'users',
    ]) {
      await runner.query(`DROP TABLE "marketplace"."${table}"`);
    }
  }
}
