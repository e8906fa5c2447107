import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { AssignmentKind } from '@app/contracts';
import { ClusterEntity } from '../entities/cluster.entity';
import { DatastoreEntity } from '../entities/datastore.entity';
import { FolderEntity } from '../entities/folder.entity';
import { NetworkEntity } from '../entities/network.entity';
import { TemplateEntity } from '../entities/template.entity';
import { ASSIGNMENT_TABLES, visibleToCustomersSql } from './inventory-tables';

/** Who may see what: everything (staff), or what these customers may use. */
export type Visibility = { all: true } | { all: false; customerUuids: readonly string[] };

export interface InventoryFilters {
  offeringUuid?: string;
  /** Only these offerings' objects (the ones the caller may see); undefined: any offering. */
  offeringUuids?: readonly string[];
  name?: string;
  /** One object (a retrieve asks the list for it, so it is visible exactly as listed). */
  uuid?: string;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

const ENTITIES = {
  clusters: ClusterEntity,
  networks: NetworkEntity,
  'existing-vm-networks': NetworkEntity,
  datastores: DatastoreEntity,
  folders: FolderEntity,
} satisfies Record<AssignmentKind, EntityTarget<ObjectLiteral>>;

type EntityOf<K extends AssignmentKind> = InstanceType<(typeof ENTITIES)[K]>;

/** `%` and `_` in a name filter are matched literally. */
function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The inventory lists customers and staff read. */
@Injectable()
export class InventoryQueryRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async listTemplates(
    filters: InventoryFilters,
    page: PageRequest,
  ): Promise<{ items: TemplateEntity[]; count: number }> {
    if (filters.offeringUuids?.length === 0) return { items: [], count: 0 };
    const query = this.dataSource.getRepository(TemplateEntity).createQueryBuilder('o');
    this.filter(query, filters);
    const [items, count] = await query
      .orderBy('o.name', 'ASC')
      .addOrderBy('o.uuid', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getManyAndCount();
    return { items, count };
  }

  async getTemplate(uuid: string): Promise<TemplateEntity | null> {
    return this.dataSource.getRepository(TemplateEntity).findOneBy({ uuid });
  }

  /** Clusters, networks (for new or existing VMs), datastores or folders the viewer may use. */
  async listObjects<K extends AssignmentKind>(
    kind: K,
    visibility: Visibility,
    filters: InventoryFilters,
    page: PageRequest,
  ): Promise<{ items: EntityOf<K>[]; count: number }> {
    if (filters.offeringUuids?.length === 0) return { items: [], count: 0 };
    const entity = ENTITIES[kind] as EntityTarget<EntityOf<K>>;
    const query = this.dataSource.getRepository(entity).createQueryBuilder('o');
    this.filter(query, filters);
    if (!visibility.all) {
      if (visibility.customerUuids.length === 0) return { items: [], count: 0 };
      query.andWhere(visibleToCustomersSql(ASSIGNMENT_TABLES[kind]), {
        customers: [...visibility.customerUuids],
      });
    }
    const [items, count] = await query
      .orderBy('o.offeringUuid', 'ASC')
      .addOrderBy('o.position', 'ASC')
      .addOrderBy('o.backendId', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getManyAndCount();
    return { items, count };
  }

  /** The names of the offering's clusters, in vCenter's order. */
  async clusterNames(offeringUuid: string): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(ClusterEntity)
      .find({ where: { offeringUuid }, order: { position: 'ASC' }, select: { name: true } });
    return rows.map((row) => row.name);
  }

  private filter(
    query: ReturnType<ReturnType<DataSource['getRepository']>['createQueryBuilder']>,
    filters: InventoryFilters,
  ): void {
    if (filters.offeringUuid !== undefined)
      query.andWhere('o.offering_uuid = :offeringUuid', { offeringUuid: filters.offeringUuid });
    if (filters.offeringUuids !== undefined)
      query.andWhere('o.offering_uuid IN (:...offeringUuids)', { offeringUuids: [...filters.offeringUuids] });
    if (filters.name !== undefined) query.andWhere('o.name ILIKE :name', { name: likePattern(filters.name) });
    if (filters.uuid !== undefined) query.andWhere('o.uuid = :uuid', { uuid: filters.uuid });
  }
}
