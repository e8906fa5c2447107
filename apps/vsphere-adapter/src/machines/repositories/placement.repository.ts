import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AssignmentKind } from '@app/contracts';
import { ASSIGNMENT_TABLES, visibleToCustomersSql } from '../../inventory/repositories/inventory-tables';

/** A template as an order uses it: its item id and hardware (MiB). */
export interface TemplateRow {
  uuid: string;
  offeringUuid: string;
  backendId: string;
  name: string;
  cores: number;
  coresPerSocket: number;
  ram: number;
  disk: number;
  nicCount: number;
}

/** A cluster, network, datastore or folder as an order uses it. */
export interface PlacementObject {
  uuid: string;
  offeringUuid: string;
  backendId: string;
  name: string;
  /** Datastores only: free space in MB. */
  freeSpace: number | null;
}

export type PlacementKind = Exclude<AssignmentKind, 'existing-vm-networks'>;

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Reads of the imported inventory for validating and deploying orders. */
@Injectable()
export class PlacementRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async template(uuid: string): Promise<TemplateRow | null> {
    const [row]: Record<string, string | number>[] = await this.dataSource.query(
      `SELECT "uuid", "offering_uuid", "backend_id", "name", "cores", "cores_per_socket", "ram", "disk", "nic_count"
       FROM "vsphere"."templates" WHERE "uuid" = $1`,
      [uuid],
    );
    if (row === undefined) return null;
    return {
      uuid: String(row.uuid),
      offeringUuid: String(row.offering_uuid),
      backendId: String(row.backend_id),
      name: String(row.name),
      cores: Number(row.cores),
      coresPerSocket: Number(row.cores_per_socket),
      ram: Number(row.ram),
      disk: Number(row.disk),
      nicCount: Number(row.nic_count),
    };
  }

  /** The object of `kind` with this uuid, in any offering, and whether `customerUuid` may use it. */
  async object(
    kind: PlacementKind,
    uuid: string,
    customerUuid: string,
  ): Promise<{ object: PlacementObject; visible: boolean } | null> {
    const table = ASSIGNMENT_TABLES[kind];
    const rows: RawObject[] = await this.dataSource.query(
      `SELECT ${this.columns(kind)}, ${visibleToCustomersSql(table).replace(/:customers/g, '$2')} AS "visible"
       FROM "vsphere"."${table.objects}" "o" WHERE "o"."uuid" = $1`,
      [uuid, [customerUuid]],
    );
    const [row] = rows;
    return row === undefined ? null : { object: toObject(row), visible: row.visible === true };
  }

  /** The objects of `kind` assigned to the customer in the offering (datastores: most free space first). */
  async assigned(
    kind: PlacementKind,
    offeringUuid: string,
    customerUuid: string,
  ): Promise<PlacementObject[]> {
    const table = ASSIGNMENT_TABLES[kind];
    const order =
      kind === 'datastores' ? `"o"."free_space" DESC NULLS LAST, "o"."position"` : `"o"."position"`;
    const rows: RawObject[] = await this.dataSource.query(
      `SELECT ${this.columns(kind)} FROM "vsphere"."${table.objects}" "o"
       JOIN "vsphere"."${table.assignments}" a ON a."object_uuid" = "o"."uuid"
       WHERE "o"."offering_uuid" = $1 AND a."customer_uuid" = $2 ORDER BY ${order}, "o"."backend_id"`,
      [offeringUuid, customerUuid],
    );
    return rows.map(toObject);
  }

  /** The cluster named by the offering's `default_cluster_label`, if there is one. */
  async defaultCluster(offeringUuid: string): Promise<PlacementObject | null> {
    const rows: RawObject[] = await this.dataSource.query(
      `SELECT ${this.columns('clusters')} FROM "vsphere"."clusters" "o"
       JOIN "vsphere"."integrations" i ON i."offering_uuid" = "o"."offering_uuid"
       WHERE "o"."offering_uuid" = $1 AND i."default_cluster_label" <> '' AND "o"."name" = i."default_cluster_label"
       ORDER BY "o"."position", "o"."backend_id" LIMIT 1`,
      [offeringUuid],
    );
    return rows.length === 0 ? null : toObject(rows[0]);
  }

  /** Objects by uuid (any kind of the offering), for a deploy: uuid → vCenter id. */
  async backendIds(kind: PlacementKind, uuids: readonly string[]): Promise<Map<string, string>> {
    if (uuids.length === 0) return new Map();
    const rows: { uuid: string; backend_id: string }[] = await this.dataSource.query(
      `SELECT "uuid", "backend_id" FROM "vsphere"."${ASSIGNMENT_TABLES[kind].objects}" WHERE "uuid" = ANY($1::uuid[])`,
      [[...uuids]],
    );
    return new Map(rows.map((r) => [r.uuid, r.backend_id]));
  }

  /** Network uuids by vCenter id in the offering (to name the networks a VM's adapters are on). */
  async networksByBackendId(offeringUuid: string): Promise<Map<string, string>> {
    const rows: { uuid: string; backend_id: string }[] = await this.dataSource.query(
      `SELECT "uuid", "backend_id" FROM "vsphere"."networks" WHERE "offering_uuid" = $1`,
      [offeringUuid],
    );
    return new Map(rows.map((r) => [r.backend_id, r.uuid]));
  }

  private columns(kind: PlacementKind): string {
    const free = kind === 'datastores' ? `"o"."free_space"` : `NULL::bigint`;
    return `"o"."uuid", "o"."offering_uuid", "o"."backend_id", "o"."name", ${free} AS "free_space"`;
  }
}

interface RawObject {
  uuid: string;
  offering_uuid: string;
  backend_id: string;
  name: string;
  free_space: string | null;
  visible?: boolean;
}

const toObject = (row: RawObject): PlacementObject => ({
  uuid: row.uuid,
  offeringUuid: row.offering_uuid,
  backendId: row.backend_id,
  name: row.name,
  freeSpace: num(row.free_space),
});
