import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  QUOTA_NAMES,
  TERMINAL_ORDER_STATES,
  UNLIMITED,
  VMWARE_VM_TYPE,
  type QuotaName,
} from '@app/contracts';
import type { QuotaAmounts, QuotaLimits } from '../domain/quota-rules';

/** Whose quotas: an organisation's (customer) or a project's. */
export type QuotaOwner = { kind: 'customer'; uuid: string } | { kind: 'project'; uuid: string };

const TABLES = {
  customer: { table: '"marketplace"."customer_quotas"', column: '"customer_uuid"' },
  project: { table: '"marketplace"."project_quotas"', column: '"project_uuid"' },
} as const;

/**
 * What a resource uses: its VM's limits and monthly cost (the larger of the old and new ones while
 * an Update is pending; cost in cents), and one VM, plus the growth reserved for changes asked on
 * the VM's own endpoints and not yet ended (`quota_reservations`). A Terminated resource, a Create
 * that erred before vCenter made the VM (no backend id) and a VM found gone from vCenter use
 * nothing. Only vSphere VMs count.
 */
const USAGE = `
  SELECT
    COALESCE(SUM(GREATEST(COALESCE((r."limits"->>'cpu')::numeric, 0), COALESCE((o."limits"->>'cpu')::numeric, 0)) + COALESCE(q."vcpu", 0)), 0) AS "vcpu",
    COALESCE(SUM(GREATEST(COALESCE((r."limits"->>'ram')::numeric, 0), COALESCE((o."limits"->>'ram')::numeric, 0)) + COALESCE(q."ram", 0)), 0) AS "ram",
    COALESCE(SUM(GREATEST(COALESCE((r."limits"->>'disk')::numeric, 0), COALESCE((o."limits"->>'disk')::numeric, 0)) + COALESCE(q."storage", 0)), 0) AS "storage",
    COUNT(r."uuid") AS "max_instances",
    COALESCE(SUM(GREATEST(COALESCE(r."cost", 0), COALESCE(o."cost", 0))), 0) * 100 AS "cost"
  FROM "marketplace"."resources" r
  JOIN "marketplace"."offerings" f ON f."uuid" = r."offering_uuid"
  JOIN "marketplace"."projects" p ON p."uuid" = r."project_uuid"
  LEFT JOIN "marketplace"."orders" o ON o."resource_uuid" = r."uuid" AND o."type" = 'Update'
    AND NOT (o."state" = ANY($3::text[]))
  LEFT JOIN (
    SELECT "resource_uuid", SUM("vcpu") AS "vcpu", SUM("ram") AS "ram", SUM("storage") AS "storage"
    FROM "marketplace"."quota_reservations" WHERE "expires" > now() GROUP BY "resource_uuid"
  ) q ON q."resource_uuid" = r."uuid"
  WHERE f."type" = $2 AND r."state" <> 'Terminated' AND NOT r."backend_gone"
    AND NOT (r."state" = 'Erred' AND r."backend_id" IS NULL)`;

/** The resource a reservation is for, as the quota check needs it. */
export interface ReservationTarget {
  readonly projectUuid: string;
  readonly customerUuid: string;
  readonly offeringType: string;
}

/** Quota limits of organisations and projects, and the usage they are checked against. */
@Injectable()
export class QuotaRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async limitsOf(owner: QuotaOwner, manager: EntityManager = this.dataSource.manager): Promise<QuotaLimits> {
    const { table, column } = TABLES[owner.kind];
    const rows: { name: QuotaName; limit: string }[] = await manager.query(
      `SELECT "name", "limit" FROM ${table} WHERE ${column} = $1`,
      [owner.uuid],
    );
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.limit)]));
  }

  /** Sets each given limit; -1 removes it (no limit). */
  async setLimits(owner: QuotaOwner, limits: QuotaLimits): Promise<void> {
    const { table, column } = TABLES[owner.kind];
    await this.dataSource.transaction(async (manager) => {
      for (const name of QUOTA_NAMES) {
        const limit = limits[name];
        if (limit === undefined) continue;
        if (limit === UNLIMITED)
          await manager.query(`DELETE FROM ${table} WHERE ${column} = $1 AND "name" = $2`, [
            owner.uuid,
            name,
          ]);
        else
          await manager.query(
            `INSERT INTO ${table} (${column}, "name", "limit") VALUES ($1, $2, $3)
             ON CONFLICT (${column}, "name") DO UPDATE SET "limit" = EXCLUDED."limit"`,
            [owner.uuid, name, limit],
          );
      }
    });
  }

  /** What the owner's resources and pending orders use now. */
  async usageOf(owner: QuotaOwner, manager: EntityManager = this.dataSource.manager): Promise<QuotaAmounts> {
    const scope = owner.kind === 'project' ? `p."uuid" = $1` : `p."customer_uuid" = $1`;
    const rows: Record<QuotaName, string>[] = await manager.query(`${USAGE} AND ${scope}`, [
      owner.uuid,
      VMWARE_VM_TYPE,
      [...TERMINAL_ORDER_STATES],
    ]);
    const row = rows[0];
    return {
      vcpu: Number(row.vcpu),
      ram: Number(row.ram),
      storage: Number(row.storage),
      max_instances: Number(row.max_instances),
      cost: Math.round(Number(row.cost)),
    };
  }

  /**
   * Locks the organisation's row, then the project's, until `tx` ends: every order that grows a
   * project's or organisation's usage takes these locks before it counts, so two orders never count
   * the same room. NO KEY UPDATE: rows referencing them (new orders' projects) are not blocked.
   */
  async lockScopes(tx: EntityManager, customerUuid: string, projectUuid: string): Promise<void> {
    await tx.query(`SELECT 1 FROM "marketplace"."customers" WHERE "uuid" = $1 FOR NO KEY UPDATE`, [
      customerUuid,
    ]);
    await tx.query(`SELECT 1 FROM "marketplace"."projects" WHERE "uuid" = $1 FOR NO KEY UPDATE`, [
      projectUuid,
    ]);
  }

  /** The project, organisation and offering type of a resource, or null when there is none. */
  async reservationTarget(
    tx: EntityManager,
    marketplaceResourceUuid: string,
  ): Promise<ReservationTarget | null> {
    const rows: { project_uuid: string; customer_uuid: string; type: string }[] = await tx.query(
      `SELECT r."project_uuid", p."customer_uuid", f."type" FROM "marketplace"."resources" r
       JOIN "marketplace"."projects" p ON p."uuid" = r."project_uuid"
       JOIN "marketplace"."offerings" f ON f."uuid" = r."offering_uuid"
       WHERE r."uuid" = $1`,
      [marketplaceResourceUuid],
    );
    const row = rows[0];
    return row
      ? { projectUuid: row.project_uuid, customerUuid: row.customer_uuid, offeringType: row.type }
      : null;
  }

  /** Whether the operation's growth is reserved (a repeated request must not count it twice). */
  async hasReservation(tx: EntityManager, operationUuid: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM "marketplace"."quota_reservations" WHERE "operation_uuid" = $1`,
      [operationUuid],
    );
    return rows.length > 0;
  }

  /** Records the growth of the operation on the resource, counted until `ttlMs` from now at most. */
  async reserve(
    tx: EntityManager,
    reservation: {
      operationUuid: string;
      marketplaceResourceUuid: string;
      growth: Pick<QuotaAmounts, 'vcpu' | 'ram' | 'storage'>;
    },
    ttlMs: number,
  ): Promise<void> {
    const { operationUuid, marketplaceResourceUuid, growth } = reservation;
    await tx.query(
      `INSERT INTO "marketplace"."quota_reservations"
         ("operation_uuid", "resource_uuid", "vcpu", "ram", "storage", "expires")
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
       ON CONFLICT ("operation_uuid") DO NOTHING`,
      [operationUuid, marketplaceResourceUuid, growth.vcpu, growth.ram, growth.storage, ttlMs / 1000],
    );
  }

  /** Removes the operation's reservation (its operation ended, or was never queued); true when there was one. */
  async release(operationUuid: string, tx: EntityManager = this.dataSource.manager): Promise<boolean> {
    const result: [unknown[], number] = await tx.query(
      `DELETE FROM "marketplace"."quota_reservations" WHERE "operation_uuid" = $1`,
      [operationUuid],
    );
    return result[1] > 0;
  }

  /** Marks whether the resource's VM is gone from vCenter (it then uses nothing); true when it changed. */
  async setBackendGone(tx: EntityManager, marketplaceResourceUuid: string, gone: boolean): Promise<boolean> {
    const result: [unknown[], number] = await tx.query(
      `UPDATE "marketplace"."resources" SET "backend_gone" = $2 WHERE "uuid" = $1 AND "backend_gone" <> $2`,
      [marketplaceResourceUuid, gone],
    );
    return result[1] > 0;
  }
}
