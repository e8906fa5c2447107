import { Injectable } from '@nestjs/common';
import type { Transaction } from '@app/messaging';
import type { RemoteDisk, RemoteNic, RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { planDeviceSync } from '../domain/device-reconcile';
import {
  diskDiffers,
  networkUuidOf,
  portDiffers,
  type RecordedDisk,
  type RecordedPort,
} from '../domain/device-differs';
import { VmDeviceReconciler } from './vm-device-reconciler';

type Claim = Parameters<VmDeviceReconciler['reconcile']>[4];

const TABLE = { disk: '"vsphere"."vm_disks"', port: '"vsphere"."vm_network_adapters"' } as const;

/**
 * The VmDeviceReconciler on Postgres: the VM's device rows are locked, matched to vCenter's
 * devices by key (domain/device-reconcile.ts) and only what differs is written, so each row keeps
 * its uuid, name, state and the time it was created.
 */
@Injectable()
export class DeviceReconcilerRepository extends VmDeviceReconciler {
  async reconcile(
    tx: Transaction,
    vmRowUuid: string,
    remote: Pick<RemoteVm, 'disks' | 'nics'>,
    networkUuids: ReadonlyMap<string, string>,
    claim?: Claim,
  ): Promise<{ changed: boolean; totalDiskMiB: number }> {
    let changed = claim === undefined ? false : await this.claim(tx, vmRowUuid, claim);
    changed = (await this.disks(tx, vmRowUuid, remote.disks)) || changed;
    changed = (await this.ports(tx, vmRowUuid, remote.nics, networkUuids)) || changed;
    return { changed, totalDiskMiB: remote.disks.reduce((sum, d) => sum + d.sizeMiB, 0) };
  }

  /**
   * Binds the row the request inserted to the device its operation created. A row a read-back made
   * for that device in between (it looked like one added in vCenter) gives way to it.
   */
  private async claim(tx: Transaction, vmRowUuid: string, claim: NonNullable<Claim>): Promise<boolean> {
    const table = TABLE[claim.table];
    await tx.query(`DELETE FROM ${table} WHERE "vm_uuid" = $1 AND "device_key" = $2 AND "uuid" <> $3`, [
      vmRowUuid,
      claim.deviceKey,
      claim.uuid,
    ]);
    const [row]: { n: number }[] = await tx.query(
      `WITH "changed" AS (UPDATE ${table} SET "device_key" = $3, "modified" = now()
         WHERE "uuid" = $2 AND "vm_uuid" = $1 AND "device_key" IS DISTINCT FROM $3 RETURNING 1)
       SELECT count(*)::int AS "n" FROM "changed"`,
      [vmRowUuid, claim.uuid, claim.deviceKey],
    );
    return row.n > 0;
  }

  private async disks(tx: Transaction, vmRowUuid: string, devices: readonly RemoteDisk[]): Promise<boolean> {
    const raw: {
      uuid: string;
      device_key: number | null;
      size: string;
      datastore: string | null;
      label: string | null;
    }[] = await tx.query(
      `SELECT "uuid", "device_key", "size", "datastore", "label" FROM ${TABLE.disk} WHERE "vm_uuid" = $1 FOR UPDATE`,
      [vmRowUuid],
    );
    const rows: RecordedDisk[] = raw.map((r) => ({
      uuid: r.uuid,
      key: r.device_key,
      size: Number(r.size),
      datastore: r.datastore,
      label: r.label,
    }));
    const plan = planDeviceSync(rows, devices, diskDiffers);
    for (const { row, device } of plan.update)
      await tx.query(
        `UPDATE ${TABLE.disk} SET "size" = $2, "datastore" = $3, "label" = $4, "modified" = now() WHERE "uuid" = $1`,
        [row.uuid, device.sizeMiB, device.datastore ?? null, device.label ?? null],
      );
    for (const device of plan.insert)
      await tx.query(
        `INSERT INTO ${TABLE.disk} ("vm_uuid", "device_key", "size", "datastore", "label", "name", "state")
         VALUES ($1, $2, $3, $4, $5, $6, 'OK')`,
        [
          vmRowUuid,
          device.key,
          device.sizeMiB,
          device.datastore ?? null,
          device.label ?? null,
          device.label ?? '',
        ],
      );
    if (plan.remove.length > 0)
      await tx.query(`DELETE FROM ${TABLE.disk} WHERE "uuid" = ANY($1::uuid[])`, [
        plan.remove.map((r) => r.uuid),
      ]);
    return plan.update.length + plan.insert.length + plan.remove.length > 0;
  }

  private async ports(
    tx: Transaction,
    vmRowUuid: string,
    devices: readonly RemoteNic[],
    networkUuids: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    const raw: {
      uuid: string;
      device_key: number | null;
      mac_address: string | null;
      network_backend_id: string | null;
      network_uuid: string | null;
      connected: boolean;
    }[] = await tx.query(
      `SELECT "uuid", "device_key", "mac_address", "network_backend_id", "network_uuid", "connected"
       FROM ${TABLE.port} WHERE "vm_uuid" = $1 FOR UPDATE`,
      [vmRowUuid],
    );
    const rows: RecordedPort[] = raw.map((r) => ({
      uuid: r.uuid,
      key: r.device_key,
      mac: r.mac_address,
      network: r.network_backend_id,
      networkUuid: r.network_uuid,
      connected: r.connected,
    }));
    const networkOf = (nic: RemoteNic) => networkUuidOf(nic, networkUuids);
    const plan = planDeviceSync(rows, devices, (row, nic) => portDiffers(row, nic, networkUuids));
    for (const { row, device } of plan.update)
      await tx.query(
        `UPDATE ${TABLE.port} SET "mac_address" = $2, "network_backend_id" = $3, "network_uuid" = $4, "connected" = $5,
           "modified" = now() WHERE "uuid" = $1`,
        [row.uuid, device.macAddress ?? null, device.network ?? null, networkOf(device), device.connected],
      );
    for (const device of plan.insert)
      await tx.query(
        `INSERT INTO ${TABLE.port} ("vm_uuid", "device_key", "mac_address", "network_backend_id", "network_uuid",
           "connected", "name", "state") VALUES ($1, $2, $3, $4, $5, $6, $7, 'OK')`,
        [
          vmRowUuid,
          device.key,
          device.macAddress ?? null,
          device.network ?? null,
          networkOf(device),
          device.connected,
          device.label ?? '',
        ],
      );
    if (plan.remove.length > 0)
      await tx.query(`DELETE FROM ${TABLE.port} WHERE "uuid" = ANY($1::uuid[])`, [
        plan.remove.map((r) => r.uuid),
      ]);
    return plan.update.length + plan.insert.length + plan.remove.length > 0;
  }
}
