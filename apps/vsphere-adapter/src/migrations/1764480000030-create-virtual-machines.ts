import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The VMs orders made (one per creating order, unique per offering by vCenter's uuid), their disks
 * and network adapters as read back after the deploy, and the orders already answered: an order
 * redelivered under a new event id is recognised here and answered no second time.
 */
export class CreateVirtualMachines1764480000030 implements MigrationInterface {
  name = 'CreateVirtualMachines1764480000030';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "vsphere"."virtual_machines" (
      "uuid" uuid PRIMARY KEY,
      "offering_uuid" uuid NOT NULL,
      "order_uuid" uuid NOT NULL UNIQUE,
      "resource_uuid" uuid NOT NULL,
      "customer_uuid" uuid,
      "backend_uuid" varchar(64) NOT NULL,
      "moref" varchar(255) NOT NULL,
      "name" varchar(255) NOT NULL,
      "template_uuid" uuid,
      "cpu" integer NOT NULL,
      "cores_per_socket" integer NOT NULL,
      "ram" integer NOT NULL,
      "disk" bigint NOT NULL,
      "runtime_state" varchar(16) NOT NULL CHECK ("runtime_state" IN ('POWERED_ON', 'POWERED_OFF', 'SUSPENDED')),
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("offering_uuid", "backend_uuid")
    )`);
    await runner.query(
      `CREATE INDEX "virtual_machines_resource_idx" ON "vsphere"."virtual_machines" ("resource_uuid")`,
    );
    await runner.query(`CREATE TABLE "vsphere"."vm_disks" (
      "vm_uuid" uuid NOT NULL REFERENCES "vsphere"."virtual_machines" ("uuid") ON DELETE CASCADE,
      "device_key" integer NOT NULL,
      "size" bigint NOT NULL,
      "datastore" varchar(255),
      "label" varchar(255),
      PRIMARY KEY ("vm_uuid", "device_key")
    )`);
    await runner.query(`CREATE TABLE "vsphere"."vm_network_adapters" (
      "vm_uuid" uuid NOT NULL REFERENCES "vsphere"."virtual_machines" ("uuid") ON DELETE CASCADE,
      "device_key" integer NOT NULL,
      "mac_address" varchar(32),
      "network_backend_id" varchar(255),
      "network_uuid" uuid,
      "connected" boolean NOT NULL,
      PRIMARY KEY ("vm_uuid", "device_key")
    )`);
    await runner.query(`CREATE TABLE "vsphere"."order_answers" (
      "order_uuid" uuid PRIMARY KEY,
      "outcome" varchar(8) NOT NULL CHECK ("outcome" IN ('done', 'erred')),
      "answered_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['order_answers', 'vm_network_adapters', 'vm_disks', 'virtual_machines'])
      await runner.query(`DROP TABLE "vsphere"."${table}"`);
  }
}
