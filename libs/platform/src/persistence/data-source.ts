import { DataSource, type MixedList, type EntitySchema } from 'typeorm';

export interface ServiceDataSourceOptions {
  url: string;
  /** The service's own schema: its tables, and its migrations table, live there and nowhere else. */
  schema: string;
  // TypeORM's own list type: classes, schemas or globs.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName: string;
}

/** A DataSource bound to one service's schema. Schema changes come only from migrations. */
export function createServiceDataSource(options: ServiceDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    applicationName: options.applicationName,
    extra: { max: options.poolSize ?? 10 },
  });
}

// Two instances starting at once must not both migrate: the first holds this lock, the second waits.
const MIGRATION_LOCK_KEY = 7_305_118;

/**
 * Creates the schema if needed and applies pending migrations under an advisory lock. Returns the
 * names applied. Needs a pool of two or more: the lock holds one connection, TypeORM uses another.
 */
export async function migrate(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** Cheap liveness probe for health checks. */
export async function isPostgresUp(dataSource: DataSource): Promise<boolean> {
  if (!dataSource.isInitialized) return false;
  try {
    await dataSource.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
