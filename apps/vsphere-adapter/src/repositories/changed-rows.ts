import type { EntityManager } from 'typeorm';

/**
 * Runs an UPDATE or DELETE `... RETURNING 1` and says whether it changed a row. Read through a CTE:
 * TypeORM answers a bare UPDATE/DELETE with [rows, count], not the rows.
 */
export async function changedRows(
  manager: EntityManager,
  statement: string,
  parameters: unknown[],
): Promise<boolean> {
  const [row] = await manager.query<{ count: number }[]>(
    `WITH "changed" AS (${statement}) SELECT count(*)::int AS "count" FROM "changed"`,
    parameters,
  );
  return row.count > 0;
}
