import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxOrderingSql, outboxOrderingSql } from '@app/messaging/migrations/outbox-ordering.sql';

export class OutboxOrdering1764480000011 implements MigrationInterface {
  name = 'OutboxOrdering1764480000011';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxOrderingSql('marketplace')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxOrderingSql('marketplace')) await runner.query(statement);
  }
}
