import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DeviceState, DiskView, PortView, VmState } from '@app/contracts';
import { DataSource } from 'typeorm';
import { ASSIGNMENT_TABLES } from '../../inventory/repositories/inventory-tables';
import { changedRows } from '../../repositories/changed-rows';
import type { Transaction } from '@app/messaging';
import { deviceOrder, toDiskView, toPortView, type RawDiskRow, type RawPortRow } from './device-views';
import type { VmVisibility } from '../domain/vm-access';

export type DeviceTable = 'disk' | 'port';

const TABLE: Record<DeviceTable, string> = {
  disk: '"vsphere"."vm_disks"',
  port: '"vsphere"."vm_network_adapters"',
};

/** The VM a device request concerns, as far as the request needs it. */
export interface DeviceOwnerVm {
  /** `virtual_machines.uuid` (the row). */
  readonly rowUuid: string;
  /** vCenter's instance uuid (the VM's public uuid). */
  readonly backendUuid: string;
  readonly offeringUuid: string;
  readonly customerUuid: string | null;
  /** The project that ordered the VM: what decides who sees and acts on its devices. */
  readonly projectUuid: string | null;
  /** The VM's marketplace resource: whose quotas a device it grows counts against. */
  readonly marketplaceResourceUuid: string;
  readonly state: VmState;
}

/** A disk or adapter with the VM it belongs to. */
export interface DeviceRecord<V> {
  readonly view: V;
  readonly vm: DeviceOwnerVm;
  readonly deviceKey: number | null;
}

interface RawVm {
  uuid: string;
  backend_uuid: string;
  offering_uuid: string;
  customer_uuid: string | null;
  project_uuid: string | null;
  resource_uuid: string;
  state: VmState;
}

/** A device row with the VM it belongs to. */
interface RawOwned {
  vm_row_uuid: string;
  vm_backend_uuid: string;
  vm_offering_uuid: string;
  vm_customer_uuid: string | null;
  vm_project_uuid: string | null;
  vm_resource_uuid: string;
  vm_state: VmState;
}
type RawDisk = RawDiskRow & RawOwned;
type RawPort = RawPortRow & RawOwned;

const vmOf = (r: RawOwned): DeviceOwnerVm => ({
  rowUuid: r.vm_row_uuid,
  backendUuid: r.vm_backend_uuid,
  offeringUuid: r.vm_offering_uuid,
  customerUuid: r.vm_customer_uuid,
  projectUuid: r.vm_project_uuid,
  marketplaceResourceUuid: r.vm_resource_uuid,
  state: r.vm_state,
});

const toDisk = (r: RawDisk): DeviceRecord<DiskView> => ({
  view: toDiskView(r, r.vm_backend_uuid),
  vm: vmOf(r),
  deviceKey: r.device_key,
});

const toPort = (r: RawPort): DeviceRecord<PortView> => ({
  view: toPortView(r, r.vm_backend_uuid),
  vm: vmOf(r),
  deviceKey: r.device_key,
});

const DEVICE_COLUMNS = `d."uuid", d."name", d."state", d."error_message", d."device_key", d."created", d."modified",
  v."uuid" AS "vm_row_uuid", v."backend_uuid" AS "vm_backend_uuid", v."offering_uuid" AS "vm_offering_uuid",
  v."customer_uuid" AS "vm_customer_uuid", v."project_uuid" AS "vm_project_uuid", v."resource_uuid" AS "vm_resource_uuid",
  v."state" AS "vm_state"`;

const SELECT: Record<DeviceTable, string> = {
  disk: `SELECT ${DEVICE_COLUMNS}, d."size" FROM ${TABLE.disk} d
    JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid"`,
  port: `SELECT ${DEVICE_COLUMNS}, d."mac_address", d."network_uuid", n."name" AS "network_name", d."connected"
    FROM ${TABLE.port} d JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid"
    LEFT JOIN "vsphere"."networks" n ON n."uuid" = d."network_uuid"`,
};

/**
 * The disks and network adapters of the recorded VMs as callers see them (`/api/vmware-disks/`,
 * `/api/vmware-ports/`), and the rows a device request writes before its operation runs.
 */
@Injectable()
export class VmDeviceRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The VM with vCenter uuid `backendUuid` if the caller sees it. */
  async getVm(visibility: VmVisibility, backendUuid: string): Promise<DeviceOwnerVm | null> {
    const [where, args] = visible(visibility, 2, 'v');
    const rows: RawVm[] = await this.dataSource.query(
      `SELECT v."uuid", v."backend_uuid", v."offering_uuid", v."customer_uuid", v."project_uuid", v."resource_uuid",
         v."state"
       FROM "vsphere"."virtual_machines" v WHERE v."backend_uuid" = $1 AND ${where} ORDER BY v."created" LIMIT 1`,
      [backendUuid, ...args],
    );
    return rows.length === 0
      ? null
      : {
          rowUuid: rows[0].uuid,
          backendUuid: rows[0].backend_uuid,
          offeringUuid: rows[0].offering_uuid,
          customerUuid: rows[0].customer_uuid,
          projectUuid: rows[0].project_uuid,
          marketplaceResourceUuid: rows[0].resource_uuid,
          state: rows[0].state,
        };
  }

  /**
   * Locks the VM's row until the transaction ends, so two requests on one VM check its devices
   * (count, quota) one after the other. False when the VM is gone.
   */
  async lockVm(tx: Transaction, vmRowUuid: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM "vsphere"."virtual_machines" WHERE "uuid" = $1 FOR UPDATE`,
      [vmRowUuid],
    );
    return rows.length > 0;
  }

  /**
   * The network with this uuid, and whether the customer may put adapters of existing VMs on it
   * (Waldur's CustomerNetworkPair: "networks for existing VMs"; no default applies).
   */
  async networkForPort(
    uuid: string,
    customerUuid: string | null,
  ): Promise<{ offeringUuid: string; backendId: string; assigned: boolean } | null> {
    const rows: { offering_uuid: string; backend_id: string; assigned: boolean }[] =
      await this.dataSource.query(
        `SELECT n."offering_uuid", n."backend_id", EXISTS (SELECT 1 FROM "vsphere"."${ASSIGNMENT_TABLES['existing-vm-networks'].assignments}" a
         WHERE a."object_uuid" = n."uuid" AND a."customer_uuid" = $2) AS "assigned"
       FROM "vsphere"."networks" n WHERE n."uuid" = $1`,
        [uuid, customerUuid],
      );
    return rows.length === 0
      ? null
      : { offeringUuid: rows[0].offering_uuid, backendId: rows[0].backend_id, assigned: rows[0].assigned };
  }

  async listDisks(
    visibility: VmVisibility,
    filter: { vmUuid?: string },
    page: { page: number; pageSize: number },
  ): Promise<{ items: DiskView[]; count: number }> {
    return this.list('disk', visibility, filter, page, (r: RawDisk) => toDisk(r).view);
  }

  async listPorts(
    visibility: VmVisibility,
    filter: { vmUuid?: string },
    page: { page: number; pageSize: number },
  ): Promise<{ items: PortView[]; count: number }> {
    return this.list('port', visibility, filter, page, (r: RawPort) => toPort(r).view);
  }

  async getDisk(
    visibility: VmVisibility,
    uuid: string,
    tx?: Transaction,
  ): Promise<DeviceRecord<DiskView> | null> {
    const rows: RawDisk[] = await this.byUuid('disk', visibility, uuid, tx);
    return rows.length === 0 ? null : toDisk(rows[0]);
  }

  async getPort(
    visibility: VmVisibility,
    uuid: string,
    tx?: Transaction,
  ): Promise<DeviceRecord<PortView> | null> {
    const rows: RawPort[] = await this.byUuid('port', visibility, uuid, tx);
    return rows.length === 0 ? null : toPort(rows[0]);
  }

  /** The device key the row is bound to; undefined when the row is gone, null when it has none. */
  async deviceKey(table: DeviceTable, uuid: string): Promise<number | null | undefined> {
    const rows: { device_key: number | null }[] = await this.dataSource.query(
      `SELECT "device_key" FROM ${TABLE[table]} WHERE "uuid" = $1`,
      [uuid],
    );
    return rows.length === 0 ? undefined : rows[0].device_key;
  }

  /**
   * MiB the VM's disks take or are about to: every disk vCenter has or is making (not those it never
   * made), each at the largest size a queued extend asks for.
   */
  async committedDiskMiB(tx: Transaction, vmRowUuid: string): Promise<number> {
    const [row]: { total: string }[] = await tx.query(
      `SELECT COALESCE(sum(GREATEST(d."size", COALESCE((
         SELECT max((o."params"->>'size')::bigint) FROM "vsphere"."vm_operations" o
         WHERE o."disk_uuid" = d."uuid" AND o."kind" = 'extend_disk' AND o."state" IN ('pending', 'running')
       ), 0))), 0) AS "total"
       FROM "vsphere"."vm_disks" d WHERE d."vm_uuid" = $1 AND (d."device_key" IS NOT NULL OR d."state" = 'CREATING')`,
      [vmRowUuid],
    );
    return Number(row.total);
  }

  /** The size a disk will have once its queued extends ran (its size when none is queued). */
  async committedDiskSize(tx: Transaction, diskUuid: string): Promise<number> {
    const [row]: { size: string }[] = await tx.query(
      `SELECT GREATEST(d."size", COALESCE((
         SELECT max((o."params"->>'size')::bigint) FROM "vsphere"."vm_operations" o
         WHERE o."disk_uuid" = d."uuid" AND o."kind" = 'extend_disk' AND o."state" IN ('pending', 'running')
       ), 0)) AS "size" FROM "vsphere"."vm_disks" d WHERE d."uuid" = $1`,
      [diskUuid],
    );
    return Number(row.size);
  }

  /** Adapters the VM has or is getting (not those vCenter never made). */
  async livePortCount(tx: Transaction, vmRowUuid: string): Promise<number> {
    const [row]: { n: number }[] = await tx.query(
      `SELECT count(*)::int AS "n" FROM "vsphere"."vm_network_adapters"
       WHERE "vm_uuid" = $1 AND ("device_key" IS NOT NULL OR "state" = 'CREATING')`,
      [vmRowUuid],
    );
    return row.n;
  }

  /** A disk the request asks vCenter for: CREATING, no key until the operation made it. */
  async createDisk(
    tx: Transaction,
    vmRowUuid: string,
    disk: { name: string; size: number },
  ): Promise<string> {
    const uuid = randomUUID();
    await tx.query(
      `INSERT INTO "vsphere"."vm_disks" ("uuid", "vm_uuid", "device_key", "size", "name", "state")
       VALUES ($1, $2, NULL, $3, $4, 'CREATING')`,
      [uuid, vmRowUuid, disk.size, disk.name],
    );
    return uuid;
  }

  /** An adapter the request asks vCenter for, on the network it names: CREATING, no key yet. */
  async createPort(
    tx: Transaction,
    vmRowUuid: string,
    port: { name: string; networkUuid: string; networkBackendId: string },
  ): Promise<string> {
    const uuid = randomUUID();
    await tx.query(
      `INSERT INTO "vsphere"."vm_network_adapters" ("uuid", "vm_uuid", "device_key", "name", "state", "network_uuid",
         "network_backend_id", "connected") VALUES ($1, $2, NULL, $3, 'CREATING', $4, $5, false)`,
      [uuid, vmRowUuid, port.name, port.networkUuid, port.networkBackendId],
    );
    return uuid;
  }

  /** Sets the device's state (and error message: empty unless ERRED). False when the row is gone. */
  async setState(
    tx: Transaction,
    table: DeviceTable,
    uuid: string,
    state: DeviceState,
    errorMessage = '',
  ): Promise<boolean> {
    return changedRows(
      tx,
      `UPDATE ${TABLE[table]} SET "state" = $2, "error_message" = $3, "modified" = now() WHERE "uuid" = $1 RETURNING 1`,
      [uuid, state, errorMessage],
    );
  }

  /** Deletes the row (a device vCenter never made, or no longer has). False when it was gone. */
  async delete(tx: Transaction, table: DeviceTable, uuid: string): Promise<boolean> {
    return changedRows(tx, `DELETE FROM ${TABLE[table]} WHERE "uuid" = $1 RETURNING 1`, [uuid]);
  }

  private async byUuid<R>(
    table: DeviceTable,
    visibility: VmVisibility,
    uuid: string,
    tx?: Transaction,
  ): Promise<R[]> {
    const [where, args] = visible(visibility, 2, 'v');
    return (tx ?? this.dataSource.manager).query(`${SELECT[table]} WHERE d."uuid" = $1 AND ${where}`, [
      uuid,
      ...args,
    ]);
  }

  private async list<R, V>(
    table: DeviceTable,
    visibility: VmVisibility,
    filter: { vmUuid?: string },
    page: { page: number; pageSize: number },
    map: (row: R) => V,
  ): Promise<{ items: V[]; count: number }> {
    const [where, args] = visible(visibility, 2, 'v');
    const condition = `($1::varchar IS NULL OR v."backend_uuid" = $1) AND ${where}`;
    const params = [filter.vmUuid ?? null, ...args];
    const [counted]: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS "n" FROM ${TABLE[table]} d
       JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid" WHERE ${condition}`,
      params,
    );
    const rows: R[] = await this.dataSource.query(
      `${SELECT[table]} WHERE ${condition}
       ORDER BY v."name", v."backend_uuid", ${deviceOrder('d.')}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.pageSize, (page.page - 1) * page.pageSize],
    );
    return { items: rows.map(map), count: counted.n };
  }
}

function visible(visibility: VmVisibility, first: number, alias: string): [string, unknown[]] {
  if (visibility.all) return ['TRUE', []];
  return [
    `(${alias}."customer_uuid" = ANY($${first}::uuid[]) OR ${alias}."project_uuid" = ANY($${first + 1}::uuid[]))`,
    [visibility.ownedCustomerUuids, visibility.projectUuids],
  ];
}
