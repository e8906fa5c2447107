import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { AssignmentKind } from '@app/contracts';
import { changedRows } from '../../repositories/changed-rows';
import { ASSIGNMENT_TABLES } from './inventory-tables';
import type { PageRequest } from './inventory-query.repository';

/** An object an assignment may point at. */
export interface AssignableObject {
  uuid: string;
  offeringUuid: string;
  backendId: string;
  name: string;
}

/** An assignment with its object. */
export interface AssignmentRow {
  uuid: string;
  customerUuid: string;
  created: Date;
  object: AssignableObject;
}

/** The customer already has this object assigned. */
export class DuplicateAssignmentError extends Error {}

interface RawRow {
  uuid: string;
  customer_uuid: string;
  created: Date;
  object_uuid: string;
  offering_uuid: string;
  backend_id: string;
  name: string;
}

const toRow = (raw: RawRow): AssignmentRow => ({
  uuid: raw.uuid,
  customerUuid: raw.customer_uuid,
  created: raw.created,
  object: {
    uuid: raw.object_uuid,
    offeringUuid: raw.offering_uuid,
    backendId: raw.backend_id,
    name: raw.name,
  },
});

/** Customer assignments of clusters, networks, datastores and folders (one table per kind). */
@Injectable()
export class AssignmentRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async getObject(kind: AssignmentKind, uuid: string): Promise<AssignableObject | null> {
    const rows: { uuid: string; offering_uuid: string; backend_id: string; name: string }[] =
      await this.dataSource.query(
        `SELECT "uuid", "offering_uuid", "backend_id", "name" FROM "vsphere"."${ASSIGNMENT_TABLES[kind].objects}"
         WHERE "uuid" = $1`,
        [uuid],
      );
    const [row] = rows;
    return row === undefined
      ? null
      : { uuid: row.uuid, offeringUuid: row.offering_uuid, backendId: row.backend_id, name: row.name };
  }

  /**
   * Runs `work` holding a lock on (customer, kind) until the transaction ends, so a check of how
   * many are assigned and the insert that follows cannot interleave with another's (basic mode).
   */
  async inCustomerLock<T>(
    kind: AssignmentKind,
    customerUuid: string,
    work: (tx: EntityManager) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `vsphere-assign:${kind}:${customerUuid}`,
      ]);
      return work(tx);
    });
  }

  async countInOffering(
    tx: EntityManager,
    kind: AssignmentKind,
    customerUuid: string,
    offeringUuid: string,
  ): Promise<number> {
    const { objects, assignments } = ASSIGNMENT_TABLES[kind];
    const [row]: { count: number }[] = await tx.query(
      `SELECT count(*)::int AS "count" FROM "vsphere"."${assignments}" a
       JOIN "vsphere"."${objects}" o ON o."uuid" = a."object_uuid"
       WHERE a."customer_uuid" = $1 AND o."offering_uuid" = $2`,
      [customerUuid, offeringUuid],
    );
    return row.count;
  }

  /** Throws DuplicateAssignmentError when the pair exists. */
  async add(
    tx: EntityManager,
    kind: AssignmentKind,
    customerUuid: string,
    object: AssignableObject,
  ): Promise<AssignmentRow> {
    const uuid = randomUUID();
    try {
      const [row]: { created: Date }[] = await tx.query(
        `INSERT INTO "vsphere"."${ASSIGNMENT_TABLES[kind].assignments}" ("uuid", "customer_uuid", "object_uuid")
         VALUES ($1, $2, $3) RETURNING "created"`,
        [uuid, customerUuid, object.uuid],
      );
      return { uuid, customerUuid, created: row.created, object };
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505')
        throw new DuplicateAssignmentError();
      throw error;
    }
  }

  async remove(kind: AssignmentKind, customerUuid: string, objectUuid: string): Promise<boolean> {
    return changedRows(
      this.dataSource.manager,
      `DELETE FROM "vsphere"."${ASSIGNMENT_TABLES[kind].assignments}"
       WHERE "customer_uuid" = $1 AND "object_uuid" = $2 RETURNING 1`,
      [customerUuid, objectUuid],
    );
  }

  async list(
    kind: AssignmentKind,
    filters: { customerUuid?: string; offeringUuid?: string },
    page: PageRequest,
  ): Promise<{ items: AssignmentRow[]; count: number }> {
    const { objects, assignments } = ASSIGNMENT_TABLES[kind];
    const from = `FROM "vsphere"."${assignments}" a JOIN "vsphere"."${objects}" o ON o."uuid" = a."object_uuid"
      WHERE ($1::uuid IS NULL OR a."customer_uuid" = $1) AND ($2::uuid IS NULL OR o."offering_uuid" = $2)`;
    const params = [filters.customerUuid ?? null, filters.offeringUuid ?? null];
    const [{ count }]: { count: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS "count" ${from}`,
      params,
    );
    const rows: RawRow[] = await this.dataSource.query(
      `SELECT a."uuid", a."customer_uuid", a."created", o."uuid" AS "object_uuid", o."offering_uuid",
              o."backend_id", o."name"
       ${from} ORDER BY a."created", a."uuid" LIMIT $3 OFFSET $4`,
      [...params, page.pageSize, (page.page - 1) * page.pageSize],
    );
    return { items: rows.map(toRow), count };
  }
}
