/**
 * Per-aggregate publish order and parking for the outbox of one schema (a migration of each owning
 * service). Existing rows take their correlation id as aggregate: it was the order's uuid.
 */
export function outboxOrderingSql(schema: string): string[] {
  return [
    `ALTER TABLE "${schema}"."outbox" ADD COLUMN "aggregate" text`,
    `UPDATE "${schema}"."outbox" SET "aggregate" = "correlation_id"`,
    `ALTER TABLE "${schema}"."outbox" ALTER COLUMN "aggregate" SET NOT NULL`,
    `ALTER TABLE "${schema}"."outbox" ADD COLUMN "next_attempt_at" timestamptz`,
    `ALTER TABLE "${schema}"."outbox" ADD COLUMN "parked_at" timestamptz`,
    `DROP INDEX "${schema}"."outbox_unpublished_idx"`,
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("seq")
     WHERE "published_at" IS NULL AND "parked_at" IS NULL`,
    `CREATE INDEX "outbox_unpublished_aggregate_idx" ON "${schema}"."outbox" ("aggregate", "seq")
     WHERE "published_at" IS NULL AND "parked_at" IS NULL`,
    `CREATE INDEX "outbox_published_at_idx" ON "${schema}"."outbox" ("published_at")
     WHERE "published_at" IS NOT NULL`,
    `CREATE INDEX "inbox_received_at_idx" ON "${schema}"."inbox" ("received_at")`,
  ];
}

export function dropOutboxOrderingSql(schema: string): string[] {
  return [
    `DROP INDEX "${schema}"."inbox_received_at_idx"`,
    `DROP INDEX "${schema}"."outbox_published_at_idx"`,
    `DROP INDEX "${schema}"."outbox_unpublished_aggregate_idx"`,
    `DROP INDEX "${schema}"."outbox_unpublished_idx"`,
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("seq") WHERE "published_at" IS NULL`,
    `ALTER TABLE "${schema}"."outbox" DROP COLUMN "parked_at"`,
    `ALTER TABLE "${schema}"."outbox" DROP COLUMN "next_attempt_at"`,
    `ALTER TABLE "${schema}"."outbox" DROP COLUMN "aggregate"`,
  ];
}
