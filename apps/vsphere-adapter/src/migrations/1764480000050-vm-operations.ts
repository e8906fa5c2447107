import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Day-2 operations. A VM, disk and adapter get Waldur's resource state and error message (vCenter's
 * refusal stays on what it refused); disks and adapters get a uuid of their own and may exist
 * before vCenter made them (no device key yet, or never: the seed's Destroy removes the row).
 * `vm_operations` queues the operations: one running per VM across every adapter instance (the
 * partial unique index), a lease so a crashed instance's operation is taken over, never lost.
 */
export class VmOperations1764480000050 implements MigrationInterface {
  name = 'VmOperations1764480000050';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines"
      ADD COLUMN "state" varchar(16) NOT NULL DEFAULT 'OK' CHECK ("state" IN ('OK', 'UPDATING', 'ERRED')),
      ADD COLUMN "error_message" text NOT NULL DEFAULT '',
      ADD COLUMN "tools_installed" boolean NOT NULL DEFAULT false,
      ADD COLUMN "tools_state" varchar(16) NOT NULL DEFAULT 'NOT_RUNNING'
        CHECK ("tools_state" IN ('STARTING', 'RUNNING', 'NOT_RUNNING'))`);
    for (const table of ['vm_disks', 'vm_network_adapters']) {
      await runner.query(`ALTER TABLE "vsphere"."${table}"
        ADD COLUMN "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        ADD COLUMN "name" varchar(255) NOT NULL DEFAULT '',
        ADD COLUMN "state" varchar(16) NOT NULL DEFAULT 'OK'
          CHECK ("state" IN ('CREATING', 'OK', 'UPDATING', 'DELETING', 'ERRED')),
        ADD COLUMN "error_message" text NOT NULL DEFAULT '',
        ADD COLUMN "created" timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN "modified" timestamptz NOT NULL DEFAULT now()`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" DROP CONSTRAINT "${table}_pkey"`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" ADD PRIMARY KEY ("uuid")`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" ALTER COLUMN "device_key" DROP NOT NULL`);
      await runner.query(
        `CREATE UNIQUE INDEX "${table}_device_idx" ON "vsphere"."${table}" ("vm_uuid", "device_key")
         WHERE "device_key" IS NOT NULL`,
      );
      await runner.query(`CREATE INDEX "${table}_vm_idx" ON "vsphere"."${table}" ("vm_uuid")`);
    }
    await runner.query(`CREATE TABLE "vsphere"."vm_operations" (
      "uuid" uuid PRIMARY KEY,
      "vm_uuid" uuid NOT NULL REFERENCES "vsphere"."virtual_machines" ("uuid") ON DELETE CASCADE,
      "kind" varchar(32) NOT NULL,
      "params" jsonb NOT NULL DEFAULT '{}',
      "disk_uuid" uuid,
      "port_uuid" uuid,
      "state" varchar(8) NOT NULL DEFAULT 'pending' CHECK ("state" IN ('pending', 'running', 'done', 'erred')),
      "error_message" text NOT NULL DEFAULT '',
      "requested_by" uuid,
      "created" timestamptz NOT NULL DEFAULT now(),
      "started" timestamptz,
      "finished" timestamptz,
      "claimed_by" varchar(64),
      "lease_until" timestamptz
    )`);
    await runner.query(
      `CREATE UNIQUE INDEX "vm_operations_one_running_idx" ON "vsphere"."vm_operations" ("vm_uuid")
       WHERE "state" = 'running'`,
    );
    await runner.query(
      `CREATE INDEX "vm_operations_pending_idx" ON "vsphere"."vm_operations" ("created")
       WHERE "state" = 'pending'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "vsphere"."vm_operations"`);
    for (const table of ['vm_disks', 'vm_network_adapters']) {
      await runner.query(`DELETE FROM "vsphere"."${table}" WHERE "device_key" IS NULL`);
      await runner.query(`DROP INDEX "vsphere"."${table}_device_idx"`);
      await runner.query(`DROP INDEX "vsphere"."${table}_vm_idx"`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" DROP CONSTRAINT "${table}_pkey"`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" ALTER COLUMN "device_key" SET NOT NULL`);
      await runner.query(`ALTER TABLE "vsphere"."${table}" ADD PRIMARY KEY ("vm_uuid", "device_key")`);
      await runner.query(`ALTER TABLE "vsphere"."${table}"
        DROP COLUMN "uuid", DROP COLUMN "name", DROP COLUMN "state", DROP COLUMN "error_message",
        DROP COLUMN "created", DROP COLUMN "modified"`);
    }
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines"
      DROP COLUMN "state", DROP COLUMN "error_message", DROP COLUMN "tools_installed", DROP COLUMN "tools_state"`);
  }
}
