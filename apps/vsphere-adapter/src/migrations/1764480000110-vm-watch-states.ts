import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live subscription of each offering's vCenter (WaitForUpdatesEx): who holds it, its state
 * and why, the version of the last update it applied, and a heartbeat the holder renews after each
 * answer, so any instance's health can tell a subscription that is down or whose holder died. The
 * index on (offering, moref) is what lets an update for a VM we do not manage cost one index probe.
 */
export class VmWatchStates1764480000110 implements MigrationInterface {
  name = 'VmWatchStates1764480000110';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "vsphere"."vm_watch_states" (
      "offering_uuid" uuid PRIMARY KEY,
      "holder" varchar(200) NOT NULL,
      "state" varchar(16) NOT NULL,
      "reason" text NOT NULL DEFAULT '',
      "version" text NOT NULL DEFAULT '',
      "heartbeat_at" timestamptz NOT NULL,
      "changed_at" timestamptz NOT NULL
    )`);
    await runner.query(
      `CREATE INDEX "virtual_machines_moref_idx" ON "vsphere"."virtual_machines" ("offering_uuid", "moref")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "vsphere"."virtual_machines_moref_idx"`);
    await runner.query(`DROP TABLE "vsphere"."vm_watch_states"`);
  }
}
