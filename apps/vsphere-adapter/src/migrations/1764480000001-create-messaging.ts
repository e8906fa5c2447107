import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxInboxSql, dropOutboxInboxSql } from '@app/messaging/migrations/outbox-inbox.sql';

export class CreateMessaging1764480000001 implements MigrationInterface {
  name = 'CreateMessaging1764480000001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of createOutboxInboxSql('vsphere')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxInboxSql('vsphere')) await runner.query(statement);
  }
}
