import { Inject, Injectable } from '@nestjs/common';
import type { CustomerRole, ProjectRole } from '@app/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { CustomerPermissionEntity } from '../entities/customer-permission.entity';
import { ProjectPermissionEntity } from '../entities/project-permission.entity';
import { UserEntity } from '../entities/user.entity';
import { translateDbErrors, type PageRequest } from './db-errors';

/** A user's grants, as the access policy reads them. */
export interface UserGrants {
  customers: { customerUuid: string; role: CustomerRole }[];
  projects: { projectUuid: string; customerUuid: string; role: ProjectRole }[];
}

/** A grant with its user, as `list_users` shows it. */
export interface GrantWithUser {
  uuid: string;
  role: string;
  created: Date;
  user: UserEntity;
}

/** A user's grants as two JSON columns of a statement on `marketplace.users u`. */
export const USER_GRANTS_COLUMNS = `
    COALESCE((SELECT json_agg(json_build_object('customerUuid', cp.customer_uuid, 'role', cp.role))
                FROM marketplace.customer_permissions cp WHERE cp.user_uuid = u.uuid), '[]') AS customers,
    COALESCE((SELECT json_agg(json_build_object('projectUuid', pp.project_uuid,
                                                'customerUuid', p.customer_uuid, 'role', pp.role))
                FROM marketplace.project_permissions pp JOIN marketplace.projects p ON p.uuid = pp.project_uuid
               WHERE pp.user_uuid = u.uuid), '[]') AS projects`;

const USER_WITH_GRANTS_SQL = `
  SELECT u.is_staff, u.is_active, ${USER_GRANTS_COLUMNS}
  FROM marketplace.users u WHERE u.uuid = $1`;

type Scope = { kind: 'customer'; uuid: string } | { kind: 'project'; uuid: string };

/** Role grants on customers and projects: one aggregate, two tables (each with its own foreign key). */
@Injectable()
export class RoleGrantRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async grantsOf(userUuid: string): Promise<UserGrants> {
    const found = await this.userWithGrants(userUuid);
    return found?.grants ?? { customers: [], projects: [] };
  }

  /**
   * The user's staff and active flags with every grant, in one round trip: what every request's
   * access check loads, so it is one statement rather than three. Null for an unknown user.
   */
  async userWithGrants(
    userUuid: string,
  ): Promise<{ isStaff: boolean; isActive: boolean; grants: UserGrants } | null> {
    const rows = await this.dataSource.query<
      {
        is_staff: boolean;
        is_active: boolean;
        customers: UserGrants['customers'];
        projects: UserGrants['projects'];
      }[]
    >(USER_WITH_GRANTS_SQL, [userUuid]);
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      isStaff: row.is_staff,
      isActive: row.is_active,
      grants: { customers: row.customers, projects: row.projects },
    };
  }

  /** Throws DuplicateRowError when the user holds the role already, ReferencedRowError when either side is gone. */
  async add(
    scope: Scope,
    grant: { uuid: string; userUuid: string; role: CustomerRole | ProjectRole },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await translateDbErrors(async () => {
      if (scope.kind === 'customer') {
        await manager.getRepository(CustomerPermissionEntity).insert({
          uuid: grant.uuid,
          customerUuid: scope.uuid,
          userUuid: grant.userUuid,
          role: grant.role as CustomerRole,
        });
      } else {
        await manager.getRepository(ProjectPermissionEntity).insert({
          uuid: grant.uuid,
          projectUuid: scope.uuid,
          userUuid: grant.userUuid,
          role: grant.role as ProjectRole,
        });
      }
    });
  }

  /** True when the grant existed. */
  async remove(
    scope: Scope,
    userUuid: string,
    role: CustomerRole | ProjectRole,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result =
      scope.kind === 'customer'
        ? await manager
            .getRepository(CustomerPermissionEntity)
            .delete({ customerUuid: scope.uuid, userUuid, role: role as CustomerRole })
        : await manager
            .getRepository(ProjectPermissionEntity)
            .delete({ projectUuid: scope.uuid, userUuid, role: role as ProjectRole });
    return (result.affected ?? 0) > 0;
  }

  async list(scope: Scope, page: PageRequest): Promise<{ items: GrantWithUser[]; count: number }> {
    const entity = scope.kind === 'customer' ? CustomerPermissionEntity : ProjectPermissionEntity;
    const column = scope.kind === 'customer' ? 'customer_uuid' : 'project_uuid';
    const query = this.dataSource
      .getRepository<CustomerPermissionEntity | ProjectPermissionEntity>(entity)
      .createQueryBuilder('g')
      .where(`g.${column} = :scope`, { scope: scope.uuid });
    const count = await query.getCount();
    const rows = await query
      .innerJoinAndMapOne('g.user', UserEntity, 'u', 'u.uuid = g.user_uuid')
      .orderBy('u.username', 'ASC')
      .addOrderBy('g.role', 'ASC')
      .offset((page.page - 1) * page.pageSize)
      .limit(page.pageSize)
      .getMany();
    return {
      items: rows.map((row) => ({
        uuid: row.uuid,
        role: row.role,
        created: row.created,
        user: (row as typeof row & { user: UserEntity }).user,
      })),
      count,
    };
  }
}
