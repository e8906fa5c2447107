import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** A statement of a hot path: prepared once per connection under its name, then only bound and run. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs `statement` on the connection of `source`'s transaction, or on a pooled connection when
 * there is none. TypeORM's `query()` sends every statement unnamed, so Postgres parses and plans it
 * again each time (for the token-with-grants lookup, 0.37 ms of backend CPU against 0.09 ms named);
 * pg's named statements are parsed once per connection. Errors are pg's own (`code`, `constraint`).
 */
export async function queryPrepared<R>(
  source: EntityManager | DataSource,
  statement: PreparedStatement,
  values: unknown[],
): Promise<R[]> {
  const transaction = 'createQueryRunner' in source ? undefined : source.queryRunner;
  const pool = 'createQueryRunner' in source ? source : source.dataSource;
  const runner: QueryRunner = transaction ?? pool.createQueryRunner();
  try {
    // The pg client the runner holds (a transaction's own, or one taken from the pool now).
    const client = (await runner.connect()) as PgClient;
    const result = await client.query({ name: statement.name, text: statement.text, values });
    return result.rows as R[];
  } finally {
    if (!transaction) await runner.release();
  }
}
