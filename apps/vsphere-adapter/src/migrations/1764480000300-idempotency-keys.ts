import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `Idempotency-Key`s of the adapter's creating POSTs (a VM's create_disk, create_port,
 * create_snapshot), per user: the request's fingerprint, who holds the key while the request runs
 * (`claim`, until `locked_until`), and the first answer once stored (written in the transaction
 * that made the device or queued the snapshot). Kept at least 24 h. The adapter owns no users:
 * `user_uuid` is the order service's, as the caller's context names it.
 */
export class IdempotencyKeys1764480000300 implements MigrationInterface {
  name = 'IdempotencyKeys1764480000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "vsphere"."idempotency_keys" (
        "user_uuid" uuid NOT NULL,
        "key" varchar(255) NOT NULL,
        "fingerprint" char(64) NOT NULL,
        "claim" uuid NOT NULL,
        "locked_until" timestamptz NOT NULL,
        "reply" jsonb NULL,
        "created" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("user_uuid", "key")
      )`);
    await runner.query(`CREATE INDEX "idempotency_keys_created" ON "vsphere"."idempotency_keys" ("created")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "vsphere"."idempotency_keys"`);
  }
}
