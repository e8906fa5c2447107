import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credentials bound to their endpoint (issue 20): the backend_url each stored password was entered
 * for (the adapter sends it to no other; a password saved before is taken as entered for the URL
 * stored with it), and certificate verification on for integrations created from now on (turning
 * it off is the provider's explicit choice, shown as a warning).
 */
export class IntegrationEndpointBinding1764480000065 implements MigrationInterface {
  name = 'IntegrationEndpointBinding1764480000065';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."integrations" ADD COLUMN "password_url" varchar NULL`);
    await runner.query(
      `UPDATE "vsphere"."integrations" SET "password_url" = "backend_url" WHERE "password_sealed" IS NOT NULL`,
    );
    await runner.query(`ALTER TABLE "vsphere"."integrations" ALTER COLUMN "verify_ssl" SET DEFAULT true`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."integrations" ALTER COLUMN "verify_ssl" SET DEFAULT false`);
    await runner.query(`ALTER TABLE "vsphere"."integrations" DROP COLUMN "password_url"`);
  }
}
