import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MARKETPLACE_SCHEMA } from '../../config/order-service.config';
import type { CustomerScope } from '../domain/access-policy';
import { CustomerEntity } from '../entities/customer.entity';
import { ProjectEntity } from '../entities/project.entity';
import { translateDbErrors, type PageRequest } from './db-errors';

export type CustomerFields = Omit<CustomerEntity, 'uuid' | 'created'>;

@Injectable()
export class CustomerRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async getById(uuid: string): Promise<CustomerEntity | null> {
    return this.dataSource.getRepository(CustomerEntity).findOneBy({ uuid });
  }

  async create(customer: Omit<CustomerEntity, 'created'>): Promise<CustomerEntity> {
    const repository = this.dataSource.getRepository(CustomerEntity);
    return repository.save(repository.create(customer));
  }

  async update(uuid: string, changes: Partial<CustomerFields>): Promise<void> {
    if (Object.keys(changes).length > 0)
      await this.dataSource.getRepository(CustomerEntity).update({ uuid }, changes);
  }

  /** Throws ReferencedRowError while projects or offerings still belong to the customer. */
  async delete(uuid: string): Promise<boolean> {
    const result = await translateDbErrors(() =>
      this.dataSource.getRepository(CustomerEntity).delete({ uuid }),
    );
    return (result.affected ?? 0) > 0;
  }

  /** The names of these customers, in one query (missing ones are left out). */
  async namesOf(uuids: string[]): Promise<Map<string, string>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(CustomerEntity)
      .createQueryBuilder('c')
      .select(['c.uuid', 'c.name'])
      .where('c.uuid = ANY(:uuids)', { uuids })
      .getMany();
    return new Map(rows.map((row) => [row.uuid, row.name]));
  }

  async countProjects(uuid: string): Promise<number> {
    return this.dataSource.getRepository(ProjectEntity).countBy({ customerUuid: uuid });
  }

  /**
   * Which of these customers own offerings, i.e. are service providers (Waldur's
   * `is_service_provider`). Read from the marketplace's table by name: identity does not import the
   * marketplace's code, and a provider is a fact of the same database.
   */
  async providersAmong(uuids: string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    const rows: { customer_uuid: string }[] = await this.dataSource.query(
      `SELECT DISTINCT "customer_uuid" FROM "${MARKETPLACE_SCHEMA}"."offerings" WHERE "customer_uuid" = ANY($1)`,
      [uuids],
    );
    return new Set(rows.map((row) => row.customer_uuid));
  }

  async list(
    scope: CustomerScope,
    filters: { name?: string },
    page: PageRequest,
  ): Promise<{ items: CustomerEntity[]; count: number }> {
    const query = this.dataSource.getRepository(CustomerEntity).createQueryBuilder('c');
    if (!scope.all) query.andWhere('c.uuid = ANY(:scope)', { scope: scope.customerUuids });
    if (filters.name !== undefined)
      query.andWhere('c.name ILIKE :name', { name: `%${escapeLike(filters.name)}%` });
    const [items, count] = await query
      .orderBy('c.name', 'ASC')
      .addOrderBy('c.uuid', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getManyAndCount();
    return { items, count };
  }
}

/** `%` and `_` in a name filter are matched literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
