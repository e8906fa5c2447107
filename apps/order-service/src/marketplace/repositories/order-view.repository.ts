import { Inject, Injectable } from '@nestjs/common';
import type { OrderState, OrderType, OrderView, ResourceState, ResourceView } from '@app/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type Principal, type PageRequest } from '../../identity';

/** What a list may hold: staff sees all; others their projects' and their providers' objects. */
export type OrderVisibility = { all: true } | { all: false; ownedCustomers: string[]; projects: string[] };

export function orderVisibility(principal: Principal): OrderVisibility {
  if (principal.isStaff) return { all: true };
  return {
    all: false,
    ownedCustomers: [...principal.ownedCustomers],
    projects: [...principal.projectRoles.keys()],
  };
}

export interface OrderFilter {
  offeringUuid?: string;
  projectUuid?: string;
  customerUuid?: string;
  providerUuid?: string;
  marketplaceResourceUuid?: string;
  state?: OrderState;
  type?: OrderType;
}

export interface ResourceFilter {
  offeringUuid?: string;
  projectUuid?: string;
  customerUuid?: string;
  state?: ResourceState;
  name?: string;
}

// The scope every view needs, in one query: offering and its provider, project and its customer, plan.
const SCOPE_JOINS = `
  JOIN "marketplace"."offerings" off ON off."uuid" = x."offering_uuid"
  JOIN "marketplace"."customers" prov ON prov."uuid" = off."customer_uuid"
  JOIN "marketplace"."projects" p ON p."uuid" = x."project_uuid"
  JOIN "marketplace"."customers" c ON c."uuid" = p."customer_uuid"
  LEFT JOIN "marketplace"."plans" pl ON pl."uuid" = x."plan_uuid"`;

const SCOPE_COLUMNS = `
  x."offering_uuid", off."name" AS "offering_name", off."type" AS "offering_type",
  x."project_uuid", p."name" AS "project_name", p."customer_uuid", c."name" AS "customer_name",
  x."plan_uuid", pl."name" AS "plan_name", off."customer_uuid" AS "provider_uuid", prov."name" AS "provider_name"`;

const ORDER_SELECT = `
  SELECT x."uuid", x."type", x."state", ${SCOPE_COLUMNS},
    x."resource_uuid" AS "marketplace_resource_uuid", r."backend_id" AS "resource_uuid",
    r."name" AS "resource_name", x."attributes", x."limits", x."cost"::text AS "cost", x."error_message",
    x."created_by" AS "created_by_uuid", u."username" AS "created_by_username",
    x."created", x."modified", x."completed_at"
  FROM "marketplace"."orders" x
  JOIN "marketplace"."resources" r ON r."uuid" = x."resource_uuid"
  ${SCOPE_JOINS}
  LEFT JOIN "marketplace"."users" u ON u."uuid" = x."created_by"`;

const RESOURCE_SELECT = `
  SELECT x."uuid", x."name", x."description", x."state", ${SCOPE_COLUMNS},
    x."backend_id" AS "resource_uuid", x."backend_ref" AS "backend_id", off."type" AS "resource_type",
    x."attributes", x."limits", x."cost"::text AS "cost", x."error_message", x."created", x."modified",
    x."end_date", x."end_date_requested_by", x."end_date_warnings"
  FROM "marketplace"."resources" x
  ${SCOPE_JOINS}`;

type Row = Record<string, unknown>;

/**
 * Orders and resources as their public views (Waldur's fields), read with their scope in one query.
 * An order whose offering has no provider (rows of the first round's caller-less path, before its
 * removal) has no view.
 */
@Injectable()
export class OrderViewRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async order(uuid: string, manager: EntityManager = this.dataSource.manager): Promise<OrderView | null> {
    const rows: Row[] = await manager.query(`${ORDER_SELECT} WHERE x."uuid" = $1`, [uuid]);
    return rows.length ? toOrderView(rows[0]) : null;
  }

  async resource(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ResourceView | null> {
    const rows: Row[] = await manager.query(`${RESOURCE_SELECT} WHERE x."uuid" = $1`, [uuid]);
    return rows.length ? toResourceView(rows[0]) : null;
  }

  async orders(
    visibility: OrderVisibility,
    filter: OrderFilter,
    page: PageRequest,
  ): Promise<{ items: OrderView[]; count: number }> {
    const where = new Where(visibility);
    where.equal('x."offering_uuid"', filter.offeringUuid);
    where.equal('x."project_uuid"', filter.projectUuid);
    where.equal('p."customer_uuid"', filter.customerUuid);
    where.equal('off."customer_uuid"', filter.providerUuid);
    where.equal('x."resource_uuid"', filter.marketplaceResourceUuid);
    where.equal('x."state"', filter.state);
    where.equal('x."type"', filter.type);
    return this.page(ORDER_SELECT, where, page, toOrderView);
  }

  async resources(
    visibility: OrderVisibility,
    filter: ResourceFilter,
    page: PageRequest,
  ): Promise<{ items: ResourceView[]; count: number }> {
    const where = new Where(visibility);
    where.equal('x."offering_uuid"', filter.offeringUuid);
    where.equal('x."project_uuid"', filter.projectUuid);
    where.equal('p."customer_uuid"', filter.customerUuid);
    where.equal('x."state"', filter.state);
    if (filter.name)
      where.add(`x."name" ILIKE $? ESCAPE '\\'`, `%${filter.name.replace(/[\\%_]/g, '\\$&')}%`);
    return this.page(RESOURCE_SELECT, where, page, toResourceView);
  }

  private async page<V>(
    select: string,
    where: Where,
    page: PageRequest,
    map: (row: Row) => V,
  ): Promise<{ items: V[]; count: number }> {
    const condition = where.sql();
    const values = where.values;
    const from = select.slice(select.indexOf('FROM'));
    const [{ count }]: { count: string }[] = await this.dataSource.query(
      `SELECT count(*) AS "count" ${from} WHERE ${condition}`,
      values,
    );
    const rows: Row[] = await this.dataSource.query(
      `${select} WHERE ${condition} ORDER BY x."created" DESC, x."uuid"
       LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, page.pageSize, (page.page - 1) * page.pageSize],
    );
    return { items: rows.map(map), count: Number(count) };
  }
}

/** A WHERE clause built from optional filters, numbering its parameters. */
class Where {
  readonly values: unknown[] = [];
  private readonly parts: string[] = [];

  constructor(visibility: OrderVisibility) {
    if (visibility.all) return;
    this.values.push(visibility.ownedCustomers, visibility.projects);
    this.parts.push(
      `(p."customer_uuid" = ANY($1::uuid[]) OR p."uuid" = ANY($2::uuid[]) OR off."customer_uuid" = ANY($1::uuid[]))`,
    );
  }

  equal(column: string, value: string | undefined): void {
    if (value !== undefined) this.add(`${column} = $?`, value);
  }

  /** `$?` in `sql` is the value's parameter. */
  add(sql: string, value: unknown): void {
    this.values.push(value);
    this.parts.push(sql.replace('$?', `$${this.values.length}`));
  }

  sql(): string {
    return this.parts.length ? this.parts.join(' AND ') : 'TRUE';
  }
}

const iso = (value: unknown): string => (value as Date).toISOString();
const isoOrNull = (value: unknown): string | null => (value ? iso(value) : null);

function scopeOf(row: Row) {
  return {
    offering_uuid: row.offering_uuid as string,
    offering_name: row.offering_name as string,
    offering_type: row.offering_type as string,
    project_uuid: row.project_uuid as string,
    project_name: row.project_name as string,
    customer_uuid: row.customer_uuid as string,
    customer_name: row.customer_name as string,
    plan_uuid: (row.plan_uuid as string | null) ?? null,
    plan_name: (row.plan_name as string | null) ?? null,
    provider_uuid: row.provider_uuid as string,
    provider_name: row.provider_name as string,
  };
}

export function toOrderView(row: Row): OrderView {
  return {
    uuid: row.uuid as string,
    type: row.type as OrderType,
    state: row.state as OrderState,
    ...scopeOf(row),
    marketplace_resource_uuid: row.marketplace_resource_uuid as string,
    resource_uuid: (row.resource_uuid as string | null) ?? null,
    resource_name: row.resource_name as string,
    attributes: row.attributes as Record<string, unknown>,
    limits: row.limits as Record<string, number>,
    cost: (row.cost as string | null) ?? null,
    error_message: row.error_message as string,
    created_by_uuid: (row.created_by_uuid as string | null) ?? null,
    created_by_username: (row.created_by_username as string | null) ?? null,
    created: iso(row.created),
    modified: iso(row.modified),
    completed_at: isoOrNull(row.completed_at),
  };
}

export function toResourceView(row: Row): ResourceView {
  return {
    uuid: row.uuid as string,
    name: row.name as string,
    description: row.description as string,
    state: row.state as ResourceState,
    ...scopeOf(row),
    resource_uuid: (row.resource_uuid as string | null) ?? null,
    backend_id: (row.backend_id as string | null) ?? null,
    resource_type: row.resource_type as string,
    attributes: row.attributes as Record<string, unknown>,
    limits: row.limits as Record<string, number>,
    cost: (row.cost as string | null) ?? null,
    error_message: row.error_message as string,
    end_date: row.end_date ? iso(row.end_date) : null,
    end_date_requested_by_uuid: (row.end_date_requested_by as string | null) ?? null,
    end_date_warnings: (row.end_date_warnings as number[] | undefined) ?? [],
    created: iso(row.created),
    modified: iso(row.modified),
  };
}
