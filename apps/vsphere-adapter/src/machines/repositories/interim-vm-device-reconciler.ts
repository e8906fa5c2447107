import { Injectable } from '@nestjs/common';
import type { Tx } from '../../repositories/unit-of-work';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { VmDeviceReconciler } from './vm-device-reconciler';

/**
 * INTERIM (the "devices" work replaces it with the real VmDeviceReconciler; delete this file and its
 * binding in machines.module.ts then). Just enough to run the operation queue's tests: rows matched
 * by device key keep their uuid, new devices become OK rows, rows of devices gone are deleted
 * (rows without a key stay), `claim` gives a created device's key to its row.
 */
@Injectable()
export class InterimVmDeviceReconciler extends VmDeviceReconciler {
  async reconcile(
    tx: Tx,
    vmRowUuid: string,
    remote: Pick<RemoteVm, 'disks' | 'nics'>,
    networkUuids: ReadonlyMap<string, string>,
    claim?: { readonly table: 'disk' | 'port'; readonly uuid: string; readonly deviceKey: number },
  ): Promise<{ changed: boolean; totalDiskMiB: number }> {
    let changed = false;
    const count = (rows: unknown): number => (Array.isArray(rows) ? rows.length : 0);
    if (claim !== undefined) {
      const table = claim.table === 'disk' ? 'vm_disks' : 'vm_network_adapters';
      await tx.query(
        `UPDATE "vsphere"."${table}" SET "device_key" = $3, "state" = 'OK', "error_message" = '', "modified" = now()
         WHERE "vm_uuid" = $1 AND "uuid" = $2`,
        [vmRowUuid, claim.uuid, claim.deviceKey],
      );
      changed = true;
    }
    const diskKeys = remote.disks.map((d) => d.key);
    const nicKeys = remote.nics.map((n) => n.key);
    changed =
      count(
        await tx.query(
          `WITH gone AS (DELETE FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1 AND "device_key" IS NOT NULL
             AND NOT ("device_key" = ANY($2::int[])) RETURNING 1) SELECT * FROM gone`,
          [vmRowUuid, diskKeys],
        ),
      ) > 0 || changed;
    changed =
      count(
        await tx.query(
          `WITH gone AS (DELETE FROM "vsphere"."vm_network_adapters" WHERE "vm_uuid" = $1 AND "device_key" IS NOT NULL
             AND NOT ("device_key" = ANY($2::int[])) RETURNING 1) SELECT * FROM gone`,
          [vmRowUuid, nicKeys],
        ),
      ) > 0 || changed;
    for (const disk of remote.disks)
      changed =
        count(
          await tx.query(
            `WITH up AS (
               INSERT INTO "vsphere"."vm_disks" ("vm_uuid", "device_key", "size", "datastore", "label", "name")
               VALUES ($1, $2, $3, $4, $5, $5)
               ON CONFLICT ("vm_uuid", "device_key") WHERE "device_key" IS NOT NULL DO UPDATE
                 SET "size" = EXCLUDED."size", "datastore" = EXCLUDED."datastore", "modified" = now()
                 WHERE "vm_disks"."size" IS DISTINCT FROM EXCLUDED."size"
                   OR "vm_disks"."datastore" IS DISTINCT FROM EXCLUDED."datastore"
               RETURNING 1) SELECT * FROM up`,
            [vmRowUuid, disk.key, disk.sizeMiB, disk.datastore ?? null, disk.label ?? ''],
          ),
        ) > 0 || changed;
    for (const nic of remote.nics)
      changed =
        count(
          await tx.query(
            `WITH up AS (
               INSERT INTO "vsphere"."vm_network_adapters" ("vm_uuid", "device_key", "mac_address",
                 "network_backend_id", "network_uuid", "connected")
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT ("vm_uuid", "device_key") WHERE "device_key" IS NOT NULL DO UPDATE
                 SET "mac_address" = EXCLUDED."mac_address", "network_backend_id" = EXCLUDED."network_backend_id",
                   "network_uuid" = EXCLUDED."network_uuid", "connected" = EXCLUDED."connected", "modified" = now()
                 WHERE ("vm_network_adapters"."mac_address", "vm_network_adapters"."network_backend_id",
                   "vm_network_adapters"."connected") IS DISTINCT FROM
                   (EXCLUDED."mac_address", EXCLUDED."network_backend_id", EXCLUDED."connected")
               RETURNING 1) SELECT * FROM up`,
            [
              vmRowUuid,
              nic.key,
              nic.macAddress ?? null,
              nic.network ?? null,
              nic.network === undefined ? null : (networkUuids.get(nic.network) ?? null),
              nic.connected,
            ],
          ),
        ) > 0 || changed;
    return { changed, totalDiskMiB: remote.disks.reduce((sum, d) => sum + d.sizeMiB, 0) };
  }
}
