/**
 * The outbox and inbox tables, created in the owning service's schema by one of its migrations.
 * Written once here so the order service and the adapter keep the same shape.
 */
export function createOutboxInboxSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}"."outbox" (
      "id" uuid PRIMARY KEY,
      "seq" bigserial NOT NULL UNIQUE,
      "subject" text NOT NULL,
      "type" text NOT NULL,
      "correlation_id" text NOT NULL,
      "envelope" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "published_at" timestamptz,
      "attempts" integer NOT NULL DEFAULT 0,
      "last_error" text
    )`,
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("seq") WHERE "published_at" IS NULL`,
    `CREATE TABLE "${schema}"."inbox" (
      "event_id" uuid PRIMARY KEY,
      "type" text NOT NULL,
      "received_at" timestamptz NOT NULL DEFAULT now()
    )`,
  ];
}

export function dropOutboxInboxSql(schema: string): string[] {
  return [`DROP TABLE "${schema}"."inbox"`, `DROP TABLE "${schema}"."outbox"`];
}
