import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxInboxSql, dropOutboxInboxSql } from '@app/messaging/migrations/outbox-inbox.sql';
import { dropOutboxOrderingSql, outboxOrderingSql } from '@app/messaging/migrations/outbox-ordering.sql';

/** The scheduler's own small schema: when each offering was last asked to synchronise, and its outbox. */
export class CreateScheduler1764480000030 implements MigrationInterface {
  name = 'CreateScheduler1764480000030';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of createOutboxInboxSql('scheduler')) await runner.query(statement);
    for (const statement of outboxOrderingSql('scheduler')) await runner.query(statement);
    await runner.query(`CREATE TABLE "scheduler"."sync_schedule" (
      "offering_uuid" uuid PRIMARY KEY,
      "last_requested_at" timestamptz NOT NULL,
      "requests" integer NOT NULL DEFAULT 1
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "scheduler"."sync_schedule"`);
    for (const statement of dropOutboxOrderingSql('scheduler')) await runner.query(statement);
    for (const statement of dropOutboxInboxSql('scheduler')) await runner.query(statement);
  }
}
