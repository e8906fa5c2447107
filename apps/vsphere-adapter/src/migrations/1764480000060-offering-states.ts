import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the adapter knows of each offering from OfferingChanged: its state and its provider, so a
 * Draft offering's inventory is shown to its provider and staff only. `changed_at` is the event's
 * time: a redelivered older event never overwrites a newer state.
 */
export class OfferingStates1764480000060 implements MigrationInterface {
  name = 'OfferingStates1764480000060';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "vsphere"."offering_states" (
      "offering_uuid" uuid PRIMARY KEY,
      "customer_uuid" uuid NOT NULL,
      "state" varchar(16) NOT NULL,
      "changed_at" timestamptz NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "vsphere"."offering_states"`);
  }
}
