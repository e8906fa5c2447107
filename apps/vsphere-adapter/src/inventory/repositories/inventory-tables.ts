import type { AssignmentKind } from '@app/contracts';

/** Where each assignment kind lives, which objects it points at, and the default without one. */
export interface AssignmentTable {
  /** The table of the objects (`clusters`, ...). */
  readonly objects: 'clusters' | 'networks' | 'datastores' | 'folders';
  /** The table of the assignments (`customer_clusters`, ...). */
  readonly assignments: string;
  /**
   * What an organisation without assignments of this kind gets (the seed's defaults): the cluster
   * named by the offering's `default_cluster_label`, the first object vCenter lists, or nothing.
   */
  readonly fallback: 'default-cluster-label' | 'first-listed' | 'none';
}

export const ASSIGNMENT_TABLES: Record<AssignmentKind, AssignmentTable> = {
  clusters: { objects: 'clusters', assignments: 'customer_clusters', fallback: 'default-cluster-label' },
  networks: { objects: 'networks', assignments: 'customer_networks', fallback: 'none' },
  'existing-vm-networks': { objects: 'networks', assignments: 'customer_network_pairs', fallback: 'none' },
  datastores: { objects: 'datastores', assignments: 'customer_datastores', fallback: 'first-listed' },
  folders: { objects: 'folders', assignments: 'customer_folders', fallback: 'first-listed' },
};

/**
 * SQL condition (on the objects' alias `o`, customers in parameter `:customers`) that holds for an
 * object one of the customers may use: assigned to it, or the kind's default for a customer that has
 * no assignment of this kind in the object's offering.
 */
export function visibleToCustomersSql(table: AssignmentTable): string {
  const assigned = `EXISTS (SELECT 1 FROM "vsphere"."${table.assignments}" a
    WHERE a."object_uuid" = "o"."uuid" AND a."customer_uuid" = ANY(CAST(:customers AS uuid[])))`;
  const isDefault =
    table.fallback === 'none'
      ? 'false'
      : table.fallback === 'first-listed'
        ? `"o"."uuid" = (SELECT x."uuid" FROM "vsphere"."${table.objects}" x
            WHERE x."offering_uuid" = "o"."offering_uuid" ORDER BY x."position", x."backend_id" LIMIT 1)`
        : `"o"."uuid" = (SELECT x."uuid" FROM "vsphere"."${table.objects}" x
            JOIN "vsphere"."integrations" i ON i."offering_uuid" = x."offering_uuid"
            WHERE x."offering_uuid" = "o"."offering_uuid" AND i."default_cluster_label" <> ''
              AND x."name" = i."default_cluster_label"
            ORDER BY x."position", x."backend_id" LIMIT 1)`;
  if (isDefault === 'false') return `(${assigned})`;
  const someCustomerWithout = `EXISTS (SELECT 1 FROM unnest(CAST(:customers AS uuid[])) AS c("uuid")
    WHERE NOT EXISTS (SELECT 1 FROM "vsphere"."${table.assignments}" a2
      JOIN "vsphere"."${table.objects}" x2 ON x2."uuid" = a2."object_uuid"
      WHERE a2."customer_uuid" = c."uuid" AND x2."offering_uuid" = "o"."offering_uuid"))`;
  return `(${assigned} OR (${isDefault} AND ${someCustomerWithout}))`;
}
