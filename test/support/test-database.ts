import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { createServiceDataSource, migrate } from '@app/platform/persistence/data-source';
import { MARKETPLACE_MIGRATIONS } from '../../apps/order-service/src/migrations';
import { VSPHERE_MIGRATIONS } from '../../apps/vsphere-adapter/src/migrations';
import { SCHEDULER_MIGRATIONS } from '../../apps/sync-scheduler/src/migrations';
import { testEnv, uniqueToken } from './test-env';

const SERVICE_SCHEMAS = [
  { schema: 'marketplace', migrations: MARKETPLACE_MIGRATIONS },
  { schema: 'vsphere', migrations: VSPHERE_MIGRATIONS },
  { schema: 'scheduler', migrations: SCHEDULER_MIGRATIONS },
];

// The template's name changes with the migrations, so a changed migration never meets a stale template.
const TEMPLATE = `vmm_tpl_${createHash('sha1')
  .update(SERVICE_SCHEMAS.flatMap((s) => s.migrations.map((m) => m.name)).join(','))
  .digest('hex')
  .slice(0, 12)}`;
const TEMPLATE_LOCK = 7_305_119;

function urlFor(database: string): string {
  const url = new URL(testEnv.databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: urlFor('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ensureTemplate(admin: Client): Promise<void> {
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE]);
  if (exists.rowCount) return;
  // Built under another name and renamed when complete: an interrupted build never leaves a half template.
  const building = `${TEMPLATE}_building`;
  await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${building}"`);
  try {
    for (const { schema, migrations } of SERVICE_SCHEMAS) {
      const dataSource = createServiceDataSource({
        url: urlFor(building),
        schema,
        entities: [],
        migrations,
        applicationName: 'test-template',
        poolSize: 2, // migrate() holds one connection for its lock while TypeORM runs on another
      });
      await dataSource.initialize();
      await migrate(dataSource, schema);
      await dataSource.destroy();
    }
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    throw error;
  }
  await admin.query(`ALTER DATABASE "${building}" RENAME TO "${TEMPLATE}"`);
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the suite's own, copied from a template that holds every service's migrated schema.
 * Copying takes tens of milliseconds; migrating runs once per change of the migrations.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = uniqueToken(`vmm_${label.replace(/[^a-z0-9]/g, '_')}_`);
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      await ensureTemplate(admin);
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return {
    name,
    url: urlFor(name),
    drop: () =>
      withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}
