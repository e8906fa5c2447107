import type { ProjectScope } from '../domain/access-policy';

/** The SQL form of `canSeeProject` on the projects table aliased `alias`: owned customers' projects and role projects. */
export function projectScopeSql(
  alias: string,
  scope: ProjectScope,
): { sql: string; parameters: Record<string, string[]> } {
  if (scope.all) return { sql: 'TRUE', parameters: {} };
  return {
    sql: `(${alias}.customer_uuid = ANY(:${alias}Owned) OR ${alias}.uuid = ANY(:${alias}Roles))`,
    parameters: { [`${alias}Owned`]: scope.ownedCustomerUuids, [`${alias}Roles`]: scope.projectUuids },
  };
}
