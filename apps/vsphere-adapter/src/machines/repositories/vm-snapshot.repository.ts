import { Inject, Injectable } from '@nestjs/common';
import type { SnapshotView } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/messaging';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import type { VmVisibility } from '../domain/vm-access';
import { snapshotWarnings } from '../domain/snapshot-rules';

type Db = Pick<Transaction, 'query'>;

interface RawSnapshot {
  uuid: string;
  vm_uuid: string;
  name: string;
  description: string;
  backend_id: string;
  vm_backend_uuid: string;
  parent_uuid: string | null;
  children: string[];
  current: boolean;
  memory: boolean;
  quiesced: boolean;
  created: Date;
  max_age_hours: number;
}

/** A snapshot with what a request on it needs: its VM's row, place and offering. */
export interface SnapshotRecord {
  readonly view: SnapshotView;
  readonly vmRowUuid: string;
  readonly vmUuid: string;
}

interface RawRecord extends RawSnapshot {
  project_uuid: string | null;
  customer_uuid: string | null;
}

// One query shape for every read: the parent and children by vCenter's ids, the age limit of the
// VM's offering (72 h where it has no integration row any more).
const SELECT = `SELECT s."uuid", s."vm_uuid", s."name", s."description", s."backend_id",
    v."backend_uuid" AS "vm_backend_uuid", v."project_uuid", v."customer_uuid", p."uuid" AS "parent_uuid",
    coalesce((SELECT array_agg(c."uuid"::text ORDER BY c."position") FROM "vsphere"."vm_snapshots" c
      WHERE c."vm_uuid" = s."vm_uuid" AND c."parent_backend_id" = s."backend_id"), '{}'::text[]) AS "children",
    s."current", s."memory", s."quiesced", s."created", coalesce(i."snapshot_max_age_hours", 72) AS "max_age_hours"
  FROM "vsphere"."vm_snapshots" s
  JOIN "vsphere"."virtual_machines" v ON v."uuid" = s."vm_uuid"
  LEFT JOIN "vsphere"."vm_snapshots" p ON p."vm_uuid" = s."vm_uuid" AND p."backend_id" = s."parent_backend_id"
  LEFT JOIN "vsphere"."integrations" i ON i."offering_uuid" = v."offering_uuid"`;

const toView = (r: RawSnapshot, now: Date): SnapshotView => ({
  uuid: r.uuid,
  name: r.name,
  description: r.description,
  backend_id: r.backend_id,
  vm_uuid: r.vm_backend_uuid,
  parent_uuid: r.parent_uuid,
  children: r.children,
  current: r.current,
  memory: r.memory,
  quiesced: r.quiesced,
  created: r.created.toISOString(),
  warnings: snapshotWarnings(r.created, r.max_age_hours, now),
});

/**
 * `vsphere.vm_snapshots`: each VM's snapshot tree as vCenter last showed it, kept by `reconcile`
 * on every read-back and pull (the one path, so snapshots taken or removed in vCenter come and go
 * like those made here).
 */
@Injectable()
export class VmSnapshotRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Makes the VM's rows what vCenter shows (rows by vCenter's snapshot id: new ones inserted, gone
   * ones deleted, the rest updated), and its `consolidation_needed`; whether anything changed. A
   * read without the tree (`snapshots` absent) changes nothing. The caller locked the VM's row.
   */
  async reconcile(tx: Transaction, vmRowUuid: string, remote: RemoteVm): Promise<boolean> {
    if (remote.snapshots === undefined) return false;
    const ids = remote.snapshots.map((s) => s.moref);
    const deleted: unknown[] = await tx.query(
      `DELETE FROM "vsphere"."vm_snapshots" WHERE "vm_uuid" = $1 AND NOT ("backend_id" = ANY($2::varchar[]))
       RETURNING 1`,
      [vmRowUuid, ids],
    );
    let changed = deleted.length > 0;
    for (const [position, s] of remote.snapshots.entries()) {
      const rows: unknown[] = await tx.query(
        `INSERT INTO "vsphere"."vm_snapshots" AS t ("vm_uuid", "backend_id", "parent_backend_id", "name",
           "description", "memory", "quiesced", "current", "position", "created")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT ("vm_uuid", "backend_id") DO UPDATE SET "parent_backend_id" = EXCLUDED."parent_backend_id",
           "name" = EXCLUDED."name", "description" = EXCLUDED."description", "memory" = EXCLUDED."memory",
           "quiesced" = EXCLUDED."quiesced", "current" = EXCLUDED."current", "position" = EXCLUDED."position",
           "created" = EXCLUDED."created"
         WHERE (t."parent_backend_id", t."name", t."description", t."memory", t."quiesced", t."current",
           t."position", t."created") IS DISTINCT FROM (EXCLUDED."parent_backend_id", EXCLUDED."name",
           EXCLUDED."description", EXCLUDED."memory", EXCLUDED."quiesced", EXCLUDED."current",
           EXCLUDED."position", EXCLUDED."created")
         RETURNING 1`,
        [
          vmRowUuid,
          s.moref,
          s.parent,
          s.name,
          s.description,
          s.memory,
          s.quiesced,
          s.moref === remote.currentSnapshot,
          position,
          s.created === '' ? new Date() : new Date(s.created),
        ],
      );
      changed ||= rows.length > 0;
    }
    const consolidation: unknown[] = await tx.query(
      `UPDATE "vsphere"."virtual_machines" SET "consolidation_needed" = $2
       WHERE "uuid" = $1 AND "consolidation_needed" IS DISTINCT FROM $2 RETURNING 1`,
      [vmRowUuid, remote.consolidationNeeded ?? false],
    );
    return changed || consolidation.length > 0;
  }

  /** The snapshots of the VMs of rows `vmRowUuids`, by row, parents before children. */
  async ofVms(db: Db, vmRowUuids: readonly string[]): Promise<Map<string, SnapshotView[]>> {
    const rows: RawSnapshot[] = await db.query(
      `${SELECT} WHERE s."vm_uuid" = ANY($1::uuid[]) ORDER BY s."position"`,
      [vmRowUuids],
    );
    const now = new Date();
    const byVm = new Map<string, SnapshotView[]>();
    for (const r of rows) byVm.set(r.vm_uuid, [...(byVm.get(r.vm_uuid) ?? []), toView(r, now)]);
    return byVm;
  }

  /** How many snapshots the VM of row `vmRowUuid` has as last recorded. */
  async count(vmRowUuid: string): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS "n" FROM "vsphere"."vm_snapshots" WHERE "vm_uuid" = $1`,
      [vmRowUuid],
    );
    return Number(rows[0].n);
  }

  /** The snapshots of the VMs the caller sees (`vmUuid`: vCenter's uuid of one VM), a page of them. */
  async list(
    visibility: VmVisibility,
    page: { page: number; pageSize: number },
    vmUuid?: string,
  ): Promise<{ items: SnapshotView[]; count: number }> {
    const [visible, args] = this.visible(visibility, 1);
    const where = vmUuid === undefined ? visible : `${visible} AND v."backend_uuid" = $${args.length + 1}`;
    const all = vmUuid === undefined ? args : [...args, vmUuid];
    const counted: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS "n" FROM "vsphere"."vm_snapshots" s
       JOIN "vsphere"."virtual_machines" v ON v."uuid" = s."vm_uuid" WHERE ${where}`,
      all,
    );
    const rows: RawSnapshot[] = await this.dataSource.query(
      `${SELECT} WHERE ${where} ORDER BY v."name", v."backend_uuid", s."position"
       LIMIT $${all.length + 1} OFFSET $${all.length + 2}`,
      [...all, page.pageSize, (page.page - 1) * page.pageSize],
    );
    const now = new Date();
    return { items: rows.map((r) => toView(r, now)), count: Number(counted[0].n) };
  }

  /** The snapshot `uuid` with its VM's place, if the caller sees its VM. */
  async get(
    visibility: VmVisibility,
    uuid: string,
  ): Promise<
    (SnapshotRecord & { place: { projectUuid: string | null; customerUuid: string | null } }) | null
  > {
    const [visible, args] = this.visible(visibility, 2);
    const rows: RawRecord[] = await this.dataSource.query(`${SELECT} WHERE s."uuid" = $1 AND ${visible}`, [
      uuid,
      ...args,
    ]);
    if (rows.length === 0) return null;
    const r = rows[0];
    return {
      view: toView(r, new Date()),
      vmRowUuid: r.vm_uuid,
      vmUuid: r.vm_backend_uuid,
      place: { projectUuid: r.project_uuid, customerUuid: r.customer_uuid },
    };
  }

  private visible(visibility: VmVisibility, first: number): [string, unknown[]] {
    if (visibility.all) return ['TRUE', []];
    return [
      `(v."customer_uuid" = ANY($${first}::uuid[]) OR v."project_uuid" = ANY($${first + 1}::uuid[]))`,
      [visibility.ownedCustomerUuids, visibility.projectUuids],
    ];
  }
}
