import { Client, type Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createServiceDataSource } from '../src/persistence/data-source';

/**
 * The exit of the vSphere adapter at a Postgres stop (the outage fault suite): pg emits 'error' on a
 * client whose backend is terminated while no query runs on it, and a client that neither pg-pool
 * (it listens on idle clients) nor TypeORM (on clients its query runners hold) listens on turns that
 * into an uncaught exception. A client checked out of the pool directly is such a client.
 */
describe('a service DataSource whose connection Postgres terminates', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('connection_end');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('takes the end of a connection nobody else listens on without an uncaught exception, and goes on', async () => {
    const dataSource = createServiceDataSource({
      url: db.url,
      schema: 'public',
      entities: [],
      migrations: [],
      applicationName: 'connection-end-test',
    });
    await dataSource.initialize();
    try {
      const pool = (dataSource.driver as unknown as { master: Pool }).master;
      const client = await pool.connect();
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const admin = new Client({ connectionString: db.url });
      await admin.connect();
      try {
        // The backend sends "terminating connection due to administrator command", as at a stop.
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      await ended;
      client.release(new Error('terminated by the test'));
      expect(await dataSource.query('SELECT 1 AS "one"')).toEqual([{ one: 1 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
