import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Snapshots. `vm_snapshots` holds each VM's snapshot tree as vCenter last showed it (one row per
 * vCenter snapshot, by its managed object id; the parent by the same id, so a removal that moves
 * children up is one update). The VM gets vCenter's `runtime.consolidationNeeded`; the offering's
 * integration gets the provider's snapshot limits beside its other maximums.
 */
export class VmSnapshots1764480000130 implements MigrationInterface {
  name = 'VmSnapshots1764480000130';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "vsphere"."vm_snapshots" (
      "uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "vm_uuid" uuid NOT NULL REFERENCES "vsphere"."virtual_machines" ("uuid") ON DELETE CASCADE,
      "backend_id" varchar(64) NOT NULL,
      "parent_backend_id" varchar(64),
      "name" varchar(255) NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "memory" boolean NOT NULL,
      "quiesced" boolean NOT NULL,
      "current" boolean NOT NULL DEFAULT false,
      "position" integer NOT NULL,
      "created" timestamptz NOT NULL,
      "recorded" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("vm_uuid", "backend_id")
    )`);
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines"
      ADD COLUMN "consolidation_needed" boolean NOT NULL DEFAULT false`);
    await runner.query(`ALTER TABLE "vsphere"."integrations"
      ADD COLUMN "max_snapshots" integer NOT NULL DEFAULT 3 CHECK ("max_snapshots" BETWEEN 0 AND 32),
      ADD COLUMN "snapshot_max_age_hours" integer NOT NULL DEFAULT 72 CHECK ("snapshot_max_age_hours" >= 1),
      ADD COLUMN "memory_snapshots" boolean NOT NULL DEFAULT true`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."integrations"
      DROP COLUMN "max_snapshots", DROP COLUMN "snapshot_max_age_hours", DROP COLUMN "memory_snapshots"`);
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines" DROP COLUMN "consolidation_needed"`);
    await runner.query(`DROP TABLE "vsphere"."vm_snapshots"`);
  }
}
