import { Inject, Injectable } from '@nestjs/common';
import type {
  SnapshotView,
  ToolsState,
  VirtualMachineView,
  VmRuntimeState,
  VmSize,
  VmState,
} from '@app/contracts';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/messaging';
import type { VmVisibility } from '../domain/vm-access';
import type { VmFigures } from '../domain/vm-drift';
import { deviceOrder, toDiskView, toPortView, type RawDiskRow, type RawPortRow } from './device-views';
import { VmSnapshotRepository } from './vm-snapshot.repository';

/** A VM's row as its lock reads it. */
export interface LockedVm {
  readonly runtimeState: VmRuntimeState;
  readonly state: VmState;
  readonly errorMessage: string;
  /** When anything of the VM was last recorded changed (the database's clock). */
  readonly modified: Date;
}

/** A VM as the REST answer shows it, with what an operation needs (its row, offering and moref). */
export interface VmRecord {
  view: VirtualMachineView;
  moref: string;
  rowUuid: string;
}

interface RawDisk extends RawDiskRow {
  vm_uuid: string;
}
interface RawPort extends RawPortRow {
  vm_uuid: string;
}

interface RawView {
  row_uuid: string;
  backend_uuid: string;
  state: VmState;
  error_message: string;
  tools_installed: boolean;
  tools_state: ToolsState;
  name: string;
  moref: string;
  runtime_state: VmRuntimeState;
  cpu: number;
  cores_per_socket: number;
  ram: number;
  disk: string;
  resource_uuid: string;
  customer_uuid: string | null;
  project_uuid: string | null;
  offering_uuid: string;
  consolidation_needed: boolean;
  created: Date;
  modified: Date;
}

const toRecord = (
  r: RawView,
  disks: RawDisk[] = [],
  ports: RawPort[] = [],
  snapshots: ReadonlyMap<string, SnapshotView[]> = new Map(),
): VmRecord => ({
  moref: r.moref,
  rowUuid: r.row_uuid,
  view: {
    uuid: r.backend_uuid,
    name: r.name,
    backend_id: r.moref,
    state: r.state,
    error_message: r.error_message,
    runtime_state: r.runtime_state,
    cores: r.cpu,
    cores_per_socket: r.cores_per_socket,
    ram: r.ram,
    disk: Number(r.disk),
    tools_installed: r.tools_installed,
    tools_state: r.tools_state,
    disks: disks.filter((d) => d.vm_uuid === r.row_uuid).map((d) => toDiskView(d, r.backend_uuid)),
    ports: ports.filter((p) => p.vm_uuid === r.row_uuid).map((p) => toPortView(p, r.backend_uuid)),
    snapshots: snapshots.get(r.row_uuid) ?? [],
    consolidation_needed: r.consolidation_needed,
    marketplace_resource_uuid: r.resource_uuid,
    customer_uuid: r.customer_uuid,
    project_uuid: r.project_uuid,
    offering_uuid: r.offering_uuid,
    created: r.created.toISOString(),
    modified: r.modified.toISOString(),
  },
});

const COLUMNS = `"uuid" AS "row_uuid", "backend_uuid", "state", "error_message", "tools_installed", "tools_state", "name", "moref", "runtime_state", "cpu", "cores_per_socket", "ram", "disk",
  "resource_uuid", "customer_uuid", "project_uuid", "offering_uuid", "consolidation_needed", "created", "modified"`;

/** The recorded VMs as callers see them (`/api/vmware-virtual-machine/`), and their runtime state. */
@Injectable()
export class VmViewRepository {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly snapshots: VmSnapshotRepository,
  ) {}

  async list(
    visibility: VmVisibility,
    page: { page: number; pageSize: number },
    projectUuid?: string,
  ): Promise<{ items: VmRecord[]; count: number }> {
    const [visible, visibleArgs] = this.visible(visibility, 1);
    const where =
      projectUuid === undefined ? visible : `${visible} AND "project_uuid" = $${visibleArgs.length + 1}`;
    const args = projectUuid === undefined ? visibleArgs : [...visibleArgs, projectUuid];
    const counted: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS "n" FROM "vsphere"."virtual_machines" WHERE ${where}`,
      args,
    );
    const rows: RawView[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE ${where}
       ORDER BY "name", "backend_uuid" LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, page.pageSize, (page.page - 1) * page.pageSize],
    );
    return { items: await this.withDevices(this.dataSource, rows), count: Number(counted[0].n) };
  }

  /** The VM with vCenter uuid `uuid` if the caller sees it. */
  async get(visibility: VmVisibility, uuid: string): Promise<VmRecord | null> {
    const [where, args] = this.visible(visibility, 2);
    const rows: RawView[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1 AND ${where}
       ORDER BY "created" LIMIT 1`,
      [uuid, ...args],
    );
    return rows.length === 0 ? null : (await this.withDevices(this.dataSource, rows))[0];
  }

  /** The VM of row `rowUuid` as it is in `tx` (after the caller's changes). */
  async getByRow(tx: Transaction, rowUuid: string): Promise<VmRecord | null> {
    const rows: RawView[] = await tx.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE "uuid" = $1`,
      [rowUuid],
    );
    return rows.length === 0 ? null : (await this.withDevices(tx, rows))[0];
  }

  /** Locks the VM's row until the transaction ends; its runtime state, or null when it is gone. */
  async lock(tx: Transaction, rowUuid: string): Promise<LockedVm | null> {
    const rows: { runtime_state: VmRuntimeState; state: VmState; error_message: string; modified: Date }[] =
      await tx.query(
        `SELECT "runtime_state", "state", "error_message", "modified" FROM "vsphere"."virtual_machines"
         WHERE "uuid" = $1 FOR UPDATE`,
        [rowUuid],
      );
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      runtimeState: row.runtime_state,
      state: row.state,
      errorMessage: row.error_message,
      modified: row.modified,
    };
  }

  /** The VM changed in a part of its own (a device, a snapshot): its `modified` says so. */
  async touch(tx: Transaction, rowUuid: string): Promise<void> {
    await tx.query(`UPDATE "vsphere"."virtual_machines" SET "modified" = now() WHERE "uuid" = $1`, [rowUuid]);
  }

  /** Sets Waldur's state and error message of the VM (UPDATING, ERRED with vCenter's message). */
  async setState(tx: Transaction, rowUuid: string, state: VmState, errorMessage: string): Promise<void> {
    await tx.query(
      `UPDATE "vsphere"."virtual_machines" SET "state" = $2, "error_message" = $3, "modified" = now()
       WHERE "uuid" = $1`,
      [rowUuid, state, errorMessage],
    );
  }

  /**
   * Records what vCenter shows of the VM, with `state`; whether any recorded field changed (the
   * caller locked the row).
   */
  async record(
    tx: Transaction,
    rowUuid: string,
    figures: VmFigures,
    state: { state: VmState; errorMessage: string },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `WITH changed AS (
         UPDATE "vsphere"."virtual_machines" SET "moref" = $2, "name" = $3, "runtime_state" = $4, "cpu" = $5,
           "cores_per_socket" = $6, "ram" = $7, "disk" = $8, "tools_state" = $9, "tools_installed" = $10,
           "state" = $11, "error_message" = $12, "modified" = now()
         WHERE "uuid" = $1 AND ("moref", "name", "runtime_state", "cpu", "cores_per_socket", "ram", "disk",
           "tools_state", "tools_installed", "state", "error_message")
           IS DISTINCT FROM ($2, $3, $4, $5::int, $6::int, $7::int, $8::bigint, $9, $10::boolean, $11, $12)
         RETURNING 1)
       SELECT * FROM changed`,
      [
        rowUuid,
        figures.moref,
        figures.name,
        figures.runtimeState,
        figures.cpu,
        figures.coresPerSocket,
        figures.ram,
        figures.disk,
        figures.toolsState,
        figures.toolsInstalled,
        state.state,
        state.errorMessage,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Records some of vCenter's figures of the VM (those `figures` has; the others as recorded),
   * with `state`; whether any recorded field changed (the caller locked the row).
   */
  async recordSome(
    tx: Transaction,
    rowUuid: string,
    figures: Partial<Omit<VmFigures, 'moref' | 'disk'>>,
    state: { state: VmState; errorMessage: string },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `WITH changed AS (
         UPDATE "vsphere"."virtual_machines" SET "name" = COALESCE($2, "name"),
           "runtime_state" = COALESCE($3, "runtime_state"), "cpu" = COALESCE($4::int, "cpu"),
           "cores_per_socket" = COALESCE($5::int, "cores_per_socket"), "ram" = COALESCE($6::int, "ram"),
           "tools_state" = COALESCE($7, "tools_state"), "tools_installed" = COALESCE($8::boolean, "tools_installed"),
           "state" = $9, "error_message" = $10, "modified" = now()
         WHERE "uuid" = $1 AND ("name", "runtime_state", "cpu", "cores_per_socket", "ram", "tools_state",
           "tools_installed", "state", "error_message")
           IS DISTINCT FROM (COALESCE($2, "name"), COALESCE($3, "runtime_state"), COALESCE($4::int, "cpu"),
             COALESCE($5::int, "cores_per_socket"), COALESCE($6::int, "ram"), COALESCE($7, "tools_state"),
             COALESCE($8::boolean, "tools_installed"), $9, $10)
         RETURNING 1)
       SELECT * FROM changed`,
      [
        rowUuid,
        figures.name ?? null,
        figures.runtimeState ?? null,
        figures.cpu ?? null,
        figures.coresPerSocket ?? null,
        figures.ram ?? null,
        figures.toolsState ?? null,
        figures.toolsInstalled ?? null,
        state.state,
        state.errorMessage,
      ],
    );
    return rows.length > 0;
  }

  /** The offerings with recorded VMs. */
  async offeringsWithVms(): Promise<string[]> {
    const rows: { offering_uuid: string }[] = await this.dataSource.query(
      `SELECT DISTINCT "offering_uuid" FROM "vsphere"."virtual_machines"`,
    );
    return rows.map((r) => r.offering_uuid);
  }

  /**
   * A page of the recorded VMs' sizes by resource uuid (one VM per resource, its latest), for the
   * order service's quota recount, with the database's clock at the read: gone when a pull found
   * the VM missing from vCenter (ERRED with `goneMessage`).
   */
  async sizes(
    after: string | null,
    limit: number,
    goneMessage: string,
  ): Promise<{ vms: VmSize[]; readAt: Date }> {
    const rows: {
      resource_uuid: string;
      cpu: number;
      ram: number;
      disk: string;
      gone: boolean;
      read_at: Date;
    }[] = await this.dataSource.query(
      `SELECT DISTINCT ON ("resource_uuid") "resource_uuid", "cpu", "ram", "disk",
           ("state" = 'ERRED' AND "error_message" = $3) AS "gone", now() AS "read_at"
         FROM "vsphere"."virtual_machines"
         WHERE $1::uuid IS NULL OR "resource_uuid" > $1::uuid
         ORDER BY "resource_uuid", "created" DESC LIMIT $2`,
      [after, limit, goneMessage],
    );
    const readAt = rows[0]?.read_at ?? (await this.now());
    return {
      vms: rows.map((r) => ({
        marketplace_resource_uuid: r.resource_uuid,
        cores: r.cpu,
        ram: r.ram,
        disk: Number(r.disk),
        gone: r.gone,
      })),
      readAt,
    };
  }

  /**
   * The database's clock now, the clock `modified` is written with: a reader of vCenter takes it
   * before its read, and a VM whose row changed after it was recorded by someone who read later.
   */
  async now(): Promise<Date> {
    const rows: { now: Date }[] = await this.dataSource.query(`SELECT clock_timestamp() AS "now"`);
    return rows[0].now;
  }

  private async withDevices(db: Pick<Transaction, 'query'>, rows: RawView[]): Promise<VmRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.row_uuid);
    const common = `"uuid", "vm_uuid", "name", "state", "error_message", "device_key", "created", "modified"`;
    const disks: RawDisk[] = await db.query(
      `SELECT ${common}, "size" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = ANY($1::uuid[])
       ORDER BY ${deviceOrder()}`,
      [ids],
    );
    const ports: RawPort[] = await db.query(
      `SELECT a."uuid", a."vm_uuid", a."name", a."state", a."error_message", a."device_key", a."created",
         a."modified", a."mac_address", a."network_uuid", n."name" AS "network_name", a."connected"
       FROM "vsphere"."vm_network_adapters" a LEFT JOIN "vsphere"."networks" n ON n."uuid" = a."network_uuid"
       WHERE a."vm_uuid" = ANY($1::uuid[]) ORDER BY ${deviceOrder('a.')}`,
      [ids],
    );
    const snapshots = await this.snapshots.ofVms(db, ids);
    return rows.map((r) => toRecord(r, disks, ports, snapshots));
  }

  private visible(visibility: VmVisibility, first: number): [string, unknown[]] {
    if (visibility.all) return ['TRUE', []];
    return [
      `("customer_uuid" = ANY($${first}::uuid[]) OR "project_uuid" = ANY($${first + 1}::uuid[]))`,
      [visibility.ownedCustomerUuids, visibility.projectUuids],
    ];
  }
}
