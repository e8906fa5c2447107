import { Inject, Injectable } from '@nestjs/common';
import type { ToolsState, VirtualMachineView, VmRuntimeState, VmState } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { Tx } from '../../repositories/unit-of-work';

/** Whose VMs a caller sees: all (staff), or those of the given customers. */
export type VmVisibility = { all: true } | { all: false; customerUuids: readonly string[] };

/** A VM as the REST answer shows it, with what a power action needs (its offering and moref). */
export interface VmRecord {
  view: VirtualMachineView;
  moref: string;
}

interface RawView {
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
  created: Date;
  modified: Date;
}

const toRecord = (r: RawView): VmRecord => ({
  moref: r.moref,
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
    disks: [],
    ports: [],
    marketplace_resource_uuid: r.resource_uuid,
    customer_uuid: r.customer_uuid,
    project_uuid: r.project_uuid,
    offering_uuid: r.offering_uuid,
    created: r.created.toISOString(),
    modified: r.modified.toISOString(),
  },
});

const COLUMNS = `"backend_uuid", "state", "error_message", "tools_installed", "tools_state", "name", "moref", "runtime_state", "cpu", "cores_per_socket", "ram", "disk",
  "resource_uuid", "customer_uuid", "project_uuid", "offering_uuid", "created", "modified"`;

/** The recorded VMs as callers see them (`/api/vmware-virtual-machine/`), and their runtime state. */
@Injectable()
export class VmViewRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async list(
    visibility: VmVisibility,
    page: { page: number; pageSize: number },
  ): Promise<{ items: VmRecord[]; count: number }> {
    const [where, args] = this.visible(visibility, 1);
    const counted: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS "n" FROM "vsphere"."virtual_machines" WHERE ${where}`,
      args,
    );
    const rows: RawView[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE ${where}
       ORDER BY "name", "backend_uuid" LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, page.pageSize, (page.page - 1) * page.pageSize],
    );
    return { items: rows.map(toRecord), count: Number(counted[0].n) };
  }

  /** The VM with vCenter uuid `uuid` if the caller sees it. */
  async get(visibility: VmVisibility, uuid: string): Promise<VmRecord | null> {
    const [where, args] = this.visible(visibility, 2);
    const rows: RawView[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1 AND ${where}
       ORDER BY "created" LIMIT 1`,
      [uuid, ...args],
    );
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  /**
   * Records the VM's runtime state; the VM as it is now with the state it had, or null when the
   * state was already that (nothing changed). The row is locked until the transaction ends.
   */
  async setRuntimeState(
    tx: Tx,
    offeringUuid: string,
    uuid: string,
    state: VmRuntimeState,
  ): Promise<{ previous: VmRuntimeState; now: VmRecord } | null> {
    const before: { runtime_state: VmRuntimeState }[] = await tx.query(
      `SELECT "runtime_state" FROM "vsphere"."virtual_machines"
       WHERE "offering_uuid" = $1 AND "backend_uuid" = $2 FOR UPDATE`,
      [offeringUuid, uuid],
    );
    if (before.length === 0 || before[0].runtime_state === state) return null;
    // An UPDATE's RETURNING comes back with its row count through TypeORM: read the row after it.
    await tx.query(
      `UPDATE "vsphere"."virtual_machines" SET "runtime_state" = $3, "modified" = now()
       WHERE "offering_uuid" = $1 AND "backend_uuid" = $2`,
      [offeringUuid, uuid, state],
    );
    const rows: RawView[] = await tx.query(
      `SELECT ${COLUMNS} FROM "vsphere"."virtual_machines" WHERE "offering_uuid" = $1 AND "backend_uuid" = $2`,
      [offeringUuid, uuid],
    );
    return { previous: before[0].runtime_state, now: toRecord(rows[0]) };
  }

  private visible(visibility: VmVisibility, first: number): [string, unknown[]] {
    if (visibility.all) return ['TRUE', []];
    return [`"customer_uuid" = ANY($${first}::uuid[])`, [visibility.customerUuids]];
  }
}
