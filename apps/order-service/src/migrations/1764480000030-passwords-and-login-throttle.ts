import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passwords (scrypt, parameters kept with each hash), tokens that always expire, and the login
 * attempt counters. Tokens issued before this had no expiry: they get the default lifetime from now,
 * so a deployment that upgrades keeps no token that lives for ever.
 */
export class PasswordsAndLoginThrottle1764480000030 implements MigrationInterface {
  name = 'PasswordsAndLoginThrottle1764480000030';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "marketplace"."users" ADD COLUMN "password_hash" text`);
    await runner.query(
      `UPDATE "marketplace"."api_tokens" SET "expires_at" = now() + interval '1 hour' WHERE "expires_at" IS NULL`,
    );
    await runner.query(`ALTER TABLE "marketplace"."api_tokens" ALTER COLUMN "expires_at" SET NOT NULL`);
    // Keyed by the sha256 of the username tried: people type their password into that field too.
    await runner.query(`CREATE TABLE "marketplace"."login_attempts" (
      "address" varchar(64) NOT NULL,
      "username_hash" char(64) NOT NULL,
      "attempts" integer NOT NULL,
      "window_started" timestamptz NOT NULL,
      PRIMARY KEY ("address", "username_hash")
    )`);
    await runner.query(
      `CREATE INDEX "login_attempts_window_idx" ON "marketplace"."login_attempts" ("window_started")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "marketplace"."login_attempts"`);
    await runner.query(`ALTER TABLE "marketplace"."api_tokens" ALTER COLUMN "expires_at" DROP NOT NULL`);
    await runner.query(`ALTER TABLE "marketplace"."users" DROP COLUMN "password_hash"`);
  }
}
