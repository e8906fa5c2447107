import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxInboxSql, dropOutboxInboxSql } from '@app/messaging/migrations/outbox-inbox.sql';

export class CreateOrders1764480000000 implements MigrationInterface {
  name = 'CreateOrders1764480000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "marketplace"."offerings" (
      "uuid" uuid PRIMARY KEY,
      "name" text NOT NULL,
      "type" text NOT NULL,
      "created" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "marketplace"."resources" (
      "uuid" uuid PRIMARY KEY,
      "name" text NOT NULL,
      "state" text NOT NULL,
      "offering_uuid" uuid NOT NULL REFERENCES "marketplace"."offerings" ("uuid"),
      "project_uuid" uuid NOT NULL,
      "backend_id" text,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "marketplace"."orders" (
      "uuid" uuid PRIMARY KEY,
      "type" text NOT NULL,
      "state" text NOT NULL,
      "offering_uuid" uuid NOT NULL REFERENCES "marketplace"."offerings" ("uuid"),
      "project_uuid" uuid NOT NULL,
      "resource_uuid" uuid NOT NULL REFERENCES "marketplace"."resources" ("uuid"),
      "attributes" jsonb NOT NULL DEFAULT '{}',
      "limits" jsonb NOT NULL DEFAULT '{}',
      "error_message" text NOT NULL DEFAULT '',
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now(),
      "completed_at" timestamptz
    )`);
    await runner.query(
      `CREATE INDEX "orders_state_created_idx" ON "marketplace"."orders" ("state", "created" DESC)`,
    );
    for (const statement of createOutboxInboxSql('marketplace')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxInboxSql('marketplace')) await runner.query(statement);
    await runner.query(`DROP TABLE "marketplace"."orders"`);
    await runner.query(`DROP TABLE "marketplace"."resources"`);
    await runner.query(`DROP TABLE "marketplace"."offerings"`);
  }
}
