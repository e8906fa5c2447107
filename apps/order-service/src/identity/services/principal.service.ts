import { Injectable } from '@nestjs/common';
import type { ProjectRole } from '@app/contracts';
import type { Principal, UserRoles } from '../domain/access-policy';
import { RoleGrantRepository, type UserGrants } from '../repositories/role-grant.repository';

/** Loads what the access policy needs to know about another user (the caller comes from their token). */
@Injectable()
export class PrincipalService {
  constructor(private readonly grants: RoleGrantRepository) {}

  async rolesOf(userUuid: string): Promise<UserRoles> {
    const grants = await this.grants.grantsOf(userUuid);
    return {
      uuid: userUuid,
      customerUuids: grants.customers.map((grant) => grant.customerUuid),
      projects: grants.projects.map(({ projectUuid, customerUuid }) => ({ uuid: projectUuid, customerUuid })),
    };
  }
}

export function principalFrom(userUuid: string, isStaff: boolean, grants: UserGrants): Principal {
  const ownedCustomers = new Set(
    grants.customers.filter((grant) => grant.role === 'CUSTOMER.OWNER').map((grant) => grant.customerUuid),
  );
  const projectRoles = new Map<string, { customerUuid: string; roles: Set<ProjectRole> }>();
  for (const grant of grants.projects) {
    const entry = projectRoles.get(grant.projectUuid) ?? {
      customerUuid: grant.customerUuid,
      roles: new Set<ProjectRole>(),
    };
    entry.roles.add(grant.role);
    projectRoles.set(grant.projectUuid, entry);
  }
  return { userUuid, isStaff, ownedCustomers, projectRoles };
}
