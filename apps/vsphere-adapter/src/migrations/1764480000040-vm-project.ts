import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The project a VM belongs to (from its creating order): the gateway streams the VM's changes to
 * the project's members, so each VmChanged carries it. Null for VMs recorded before.
 */
export class VmProject1764480000040 implements MigrationInterface {
  name = 'VmProject1764480000040';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines" ADD COLUMN "project_uuid" uuid`);
    await runner.query(
      `CREATE INDEX "virtual_machines_customer_idx" ON "vsphere"."virtual_machines" ("customer_uuid")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "vsphere"."virtual_machines_customer_idx"`);
    await runner.query(`ALTER TABLE "vsphere"."virtual_machines" DROP COLUMN "project_uuid"`);
  }
}
