import { Inject, Injectable } from '@nestjs/common';
import { Brackets, DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { UserScope } from '../domain/access-policy';
import { UserEntity } from '../entities/user.entity';
import { translateDbErrors, type PageRequest } from './db-errors';
import { projectScopeSql } from './scope-sql';

export interface UserFilters {
  username?: string;
  isStaff?: boolean;
  customerUuid?: string;
  projectUuid?: string;
}

@Injectable()
export class UserRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async getById(uuid: string, manager: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOneBy({ uuid });
  }

  async getByUsername(
    username: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOneBy({ username });
  }

  /** What a login checks: the user by username with their password hash (null when none is set). */
  async getCredentials(
    username: string,
  ): Promise<{ uuid: string; isActive: boolean; passwordHash: string | null } | null> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select(['u.uuid', 'u.isActive'])
      .addSelect('u.passwordHash')
      .where('u.username = :username', { username })
      .getOne();
    return user
      ? { uuid: user.uuid, isActive: user.isActive, passwordHash: user.passwordHash ?? null }
      : null;
  }

  async getPasswordHash(uuid: string): Promise<string | null> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select('u.uuid')
      .addSelect('u.passwordHash')
      .where('u.uuid = :uuid', { uuid })
      .getOne();
    return user?.passwordHash ?? null;
  }

  async setPasswordHash(
    uuid: string,
    passwordHash: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(UserEntity).update({ uuid }, { passwordHash });
  }

  async create(
    user: Omit<UserEntity, 'dateJoined' | 'passwordHash'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UserEntity> {
    return translateDbErrors(() => manager.getRepository(UserEntity).save(manager.create(UserEntity, user)));
  }

  async update(
    uuid: string,
    changes: Partial<Pick<UserEntity, 'fullName' | 'email' | 'isStaff' | 'isActive'>>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.getRepository(UserEntity).update({ uuid }, changes);
  }

  /** Deletes the user; their tokens and role grants go with them (ON DELETE CASCADE). */
  async delete(uuid: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const result = await manager.getRepository(UserEntity).delete({ uuid });
    return (result.affected ?? 0) > 0;
  }

  async list(
    scope: UserScope,
    filters: UserFilters,
    page: PageRequest,
  ): Promise<{ items: UserEntity[]; count: number }> {
    const query = this.dataSource.getRepository(UserEntity).createQueryBuilder('u');
    if (!scope.all) applyUserScope(query, scope);
    if (filters.username !== undefined)
      query.andWhere('u.username = :username', { username: filters.username });
    if (filters.isStaff !== undefined) query.andWhere('u.is_staff = :isStaff', { isStaff: filters.isStaff });
    if (filters.customerUuid !== undefined) {
      query.andWhere(
        `(EXISTS (SELECT 1 FROM marketplace.customer_permissions fc WHERE fc.user_uuid = u.uuid AND fc.customer_uuid = :fCustomer)
          OR EXISTS (SELECT 1 FROM marketplace.project_permissions fp JOIN marketplace.projects fpp ON fpp.uuid = fp.project_uuid
                     WHERE fp.user_uuid = u.uuid AND fpp.customer_uuid = :fCustomer))`,
        { fCustomer: filters.customerUuid },
      );
    }
    if (filters.projectUuid !== undefined) {
      query.andWhere(
        'EXISTS (SELECT 1 FROM marketplace.project_permissions fq WHERE fq.user_uuid = u.uuid AND fq.project_uuid = :fProject)',
        {
          fProject: filters.projectUuid,
        },
      );
    }
    const [items, count] = await query
      .orderBy('u.username', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getManyAndCount();
    return { items, count };
  }
}

/** The SQL form of `canSeeUser`: themselves, owners of visible customers, role holders of visible projects. */
function applyUserScope(
  query: SelectQueryBuilder<UserEntity>,
  scope: Extract<UserScope, { all: false }>,
): void {
  const customerUuids = scope.customers.all ? null : scope.customers.customerUuids;
  query.andWhere(
    new Brackets((where) => {
      where.where('u.uuid = :self', { self: scope.self });
      where.orWhere(
        `EXISTS (SELECT 1 FROM marketplace.customer_permissions sc WHERE sc.user_uuid = u.uuid AND sc.customer_uuid = ANY(:scopeCustomers))`,
        { scopeCustomers: customerUuids ?? [] },
      );
      const projects = projectScopeSql('sp', scope.projects);
      where.orWhere(
        `EXISTS (SELECT 1 FROM marketplace.project_permissions spp JOIN marketplace.projects sp ON sp.uuid = spp.project_uuid
                 WHERE spp.user_uuid = u.uuid AND ${projects.sql})`,
        projects.parameters,
      );
    }),
  );
}
