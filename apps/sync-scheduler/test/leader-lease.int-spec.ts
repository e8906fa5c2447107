import { createServiceDataSource } from '@app/platform/persistence/data-source';
import type { DataSource } from 'typeorm';
import { captureLogger } from '../../../test/support/capture-logger';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { LeaderLeaseRepository } from '../src/repositories/leader-lease.repository';

const KEY = 'sync-scheduler:lease-test';

/** One scheduler instance's lease of the test key, on a DataSource of its own. */
interface Instance {
  refresh(): Promise<boolean>;
  release(): Promise<void>;
}

describe('leader lease (Postgres advisory lock) among scheduler instances', () => {
  let db: TestDatabase;
  const sources: DataSource[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('lease');
  });
  afterAll(async () => {
    for (const source of sources) await source.destroy().catch(() => undefined);
    await db?.drop();
  });

  async function instance(): Promise<Instance> {
    const source = createServiceDataSource({
      url: db.url,
      schema: 'scheduler',
      entities: [],
      migrations: [],
      applicationName: 'lease-test',
    });
    await source.initialize();
    sources.push(source);
    const leases = new LeaderLeaseRepository(source, captureLogger('lease').logger);
    return { refresh: () => leases.refresh(KEY), release: () => leases.release(KEY) };
  }

  it('lets exactly one of three instances lead, and hands over on release', async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    const first = await Promise.all([a.refresh(), b.refresh(), c.refresh()]);
    expect(first.filter(Boolean)).toHaveLength(1);
    const leader = [a, b, c][first.indexOf(true)];
    expect(await leader.refresh()).toBe(true); // still leads on the next tick
    await leader.release();
    const others = [a, b, c].filter((candidate) => candidate !== leader);
    const second = await Promise.all(others.map((candidate) => candidate.refresh()));
    expect(second.filter(Boolean)).toHaveLength(1);
    for (const candidate of others) await candidate.release();
  });

  it('hands over when the leader’s connection dies, and the old leader knows it no longer leads', async () => {
    const [a, b] = [await instance(), await instance()];
    expect(await a.refresh()).toBe(true);
    expect(await b.refresh()).toBe(false);
    // What a crash or a network cut does to the leader's session.
    await sources[sources.length - 1].query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    // The signalled backend exits a moment later; b takes over on one of its next ticks.
    let took = false;
    for (let tick = 0; tick < 40 && !took; tick++) {
      took = await b.refresh();
      if (!took) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(took).toBe(true);
    expect(await a.refresh()).toBe(false);
    await b.release();
  });
});
