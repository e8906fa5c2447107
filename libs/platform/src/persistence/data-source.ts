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
  /** Longest a statement may run before Postgres cancels it (and the caller answers 503 or retries). */
  statementTimeoutMs?: number;
}

// Bounded work: a connection attempt, a statement and an idle transaction each have a limit, so a
// Postgres that hangs (rather than refuses) turns into an error within seconds, never a held slot.
const CONNECT_TIMEOUT_MS = 3_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Every connection of the pool handles its own 'error' event, from its first query to its end.
 * pg emits 'error' on a client whose server ends it (a Postgres stop sends "terminating connection
 * due to administrator command" to every backend) when no query is in flight, and an 'error' with
 * no listener is an uncaught exception: the process exits. pg-pool listens only while a client is
 * idle and TypeORM only while a query runner holds it; a client between the two when the message
 * arrives killed the vSphere adapter at a Postgres stop (the outage fault suite, once in a few
 * runs). The error needs nothing more here: a query in flight fails with it (and is retried or
 * answered 503), and the pool drops the broken client.
 */
function keepErrorsHandled(client: { on(event: 'error', listener: (error: Error) => void): unknown }): void {
  client.on('error', () => undefined);
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
    extra: {
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      // The client-side twin of statement_timeout: also ends a query whose server went silent.
      query_timeout: (options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS) + 5_000,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAlive: true,
      onConnect: keepErrorsHandled,
    },
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
    // Waiting for another instance's migrations may outlast the statement timeout.
    await runner.query('SET statement_timeout = 0');
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.release();
  }
}

/**
 * Cheap liveness probe for health checks, answered within `withinMs` even while Postgres hangs or
 * a connection attempt waits out its own timeout.
 */
export async function isPostgresUp(dataSource: DataSource, withinMs = 1_000): Promise<boolean> {
  if (!dataSource.isInitialized) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
  const probe = dataSource.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}
