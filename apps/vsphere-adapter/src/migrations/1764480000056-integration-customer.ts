import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The offering's customer (its provider) on its integration, so that the sync events name whose
 * owners may see them. Null for an integration saved before: the next save fills it.
 */
export class IntegrationCustomer1764480000056 implements MigrationInterface {
  name = 'IntegrationCustomer1764480000056';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."integrations" ADD COLUMN "customer_uuid" uuid NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."integrations" DROP COLUMN "customer_uuid"`);
  }
}
