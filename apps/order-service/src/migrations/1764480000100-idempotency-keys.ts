import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `Idempotency-Key`s of the creating POSTs, per user: the request's fingerprint, who holds the
 * key while the request runs (`claim`, until `locked_until`), and the first answer once it is
 * stored (written in the transaction of what the request made). Kept at least 24 h.
 */
export class IdempotencyKeys1764480000100 implements MigrationInterface {
  name = 'IdempotencyKeys1764480000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "marketplace"."idempotency_keys" (
        "user_uuid" uuid NOT NULL REFERENCES "marketplace"."users" ("uuid") ON DELETE CASCADE,
        "key" varchar(255) NOT NULL,
        "fingerprint" char(64) NOT NULL,
        "claim" uuid NOT NULL,
        "locked_until" timestamptz NOT NULL,
        "reply" jsonb NULL,
        "created" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("user_uuid", "key")
      )`);
    await runner.query(
      `CREATE INDEX "idempotency_keys_created" ON "marketplace"."idempotency_keys" ("created")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "marketplace"."idempotency_keys"`);
  }
}
