import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Growth a VM's own endpoint asked for (a disk added or extended, a resize) and the vSphere adapter
 * has queued but not yet carried out: counted in its resource's usage, beside the resource's
 * limits and its pending orders, until the VmChanged that ends the adapter's operation (keyed by
 * the operation's uuid) removes it. `expires` bounds a reservation whose operation was never
 * queued and never released (the adapter failed between the two): it then stops counting.
 */
export class QuotaReservations1764480000200 implements MigrationInterface {
  name = 'QuotaReservations1764480000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "marketplace"."quota_reservations" (
      "operation_uuid" uuid PRIMARY KEY,
      "resource_uuid" uuid NOT NULL REFERENCES "marketplace"."resources" ("uuid") ON DELETE CASCADE,
      "vcpu" bigint NOT NULL CHECK ("vcpu" >= 0),
      "ram" bigint NOT NULL CHECK ("ram" >= 0),
      "storage" bigint NOT NULL CHECK ("storage" >= 0),
      "created" timestamptz NOT NULL DEFAULT now(),
      "expires" timestamptz NOT NULL)`);
    await runner.query(
      `CREATE INDEX "quota_reservations_resource" ON "marketplace"."quota_reservations" ("resource_uuid")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "marketplace"."quota_reservations"`);
  }
}
