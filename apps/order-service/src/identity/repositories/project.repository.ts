import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ProjectScope } from '../domain/access-policy';
import { CustomerEntity } from '../entities/customer.entity';
import { ProjectEntity } from '../entities/project.entity';
import { escapeLike } from './customer.repository';
import { translateDbErrors, type PageRequest } from './db-errors';
import { projectScopeSql } from './scope-sql';

@Injectable()
export class ProjectRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async getById(uuid: string): Promise<ProjectEntity | null> {
    return this.dataSource.getRepository(ProjectEntity).findOneBy({ uuid });
  }

  /** Throws ReferencedRowError when the customer was deleted meanwhile. */
  async create(project: Omit<ProjectEntity, 'created'>): Promise<ProjectEntity> {
    const repository = this.dataSource.getRepository(ProjectEntity);
    return translateDbErrors(() => repository.save(repository.create(project)));
  }

  async update(uuid: string, changes: Partial<Pick<ProjectEntity, 'name' | 'description'>>): Promise<void> {
    if (Object.keys(changes).length > 0)
      await this.dataSource.getRepository(ProjectEntity).update({ uuid }, changes);
  }

  /**
   * Deletes the project; its role grants go with it (ON DELETE CASCADE). Throws ReferencedRowError
   * while orders or resources name it.
   */
  async delete(uuid: string): Promise<boolean> {
    const result = await translateDbErrors(() =>
      this.dataSource.getRepository(ProjectEntity).delete({ uuid }),
    );
    return (result.affected ?? 0) > 0;
  }

  async customerNames(uuids: string[]): Promise<Map<string, string>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(CustomerEntity)
      .createQueryBuilder('c')
      .select(['c.uuid', 'c.name'])
      .where('c.uuid = ANY(:uuids)', { uuids: [...new Set(uuids)] })
      .getMany();
    return new Map(rows.map((row) => [row.uuid, row.name]));
  }

  async list(
    scope: ProjectScope,
    filters: { name?: string; customerUuid?: string },
    page: PageRequest,
  ): Promise<{ items: ProjectEntity[]; count: number }> {
    const query = this.dataSource.getRepository(ProjectEntity).createQueryBuilder('p');
    const visible = projectScopeSql('p', scope);
    query.andWhere(visible.sql, visible.parameters);
    if (filters.name !== undefined)
      query.andWhere('p.name ILIKE :name', { name: `%${escapeLike(filters.name)}%` });
    if (filters.customerUuid !== undefined)
      query.andWhere('p.customer_uuid = :customer', { customer: filters.customerUuid });
    const [items, count] = await query
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.uuid', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getManyAndCount();
    return { items, count };
  }
}
