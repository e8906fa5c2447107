import { randomBytes } from 'node:crypto';
import type { Envelope, SyncRequested } from '@app/contracts';
import { ApiSession, type Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { readEnvelopes } from '../support/stream-reader';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';

jest.setTimeout(120_000);

const INTERVAL_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sync-scheduler: every vSphere offering synchronised once per interval, by one leader among two', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let env: Record<string, string>;
  let apps: AppProcess[];
  let schedulers: AppProcess[];
  let api: ApiSession;
  const offering: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase('schedule');
    nats = await createTestNats('schedule');
    const port = await freePort();
    env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    apps = [
      new AppProcess('order-service', env),
      new AppProcess('vsphere-adapter', {
        ...env,
        CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      }),
      new AppProcess('gateway', { ...env, GATEWAY_PORT: String(port) }),
    ];
    await Promise.all([apps[0].start(), apps[1].start(), apps[2].start('gateway listening')]);
    api = new ApiSession(`http://127.0.0.1:${port}`, db.url);
    await api.bootstrapStaff('staff', env);
    const provider = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Provider' })).uuid as string;
    const create = async (name: string, type: string) =>
      (
        await api.ok<Json>('staff', 'POST', '/api/marketplace-provider-offerings/', {
          name,
          type,
          customer: provider,
        })
      ).uuid as string;
    // No vCenter behind any of them: their integrations are missing or ERRED, and are synchronised all the same.
    offering.first = await create('vSphere one', 'VMware.VirtualMachine');
    offering.second = await create('vSphere two', 'VMware.VirtualMachine');
    offering.archived = await create('vSphere archived', 'VMware.VirtualMachine');
    offering.basic = await create('By hand', 'Marketplace.Basic');
    await api.ok('staff', 'POST', `/api/marketplace-provider-offerings/${offering.archived}/archive/`);
    // The first one points at a vCenter that is not there: ERRED, and kept synchronised all the same.
    const saved = await api.ok<Json>(
      'staff',
      'POST',
      `/api/marketplace-provider-offerings/${offering.first}/update_integration/`,
      {
        service_attributes: { backend_url: 'https://127.0.0.1:9/', username: 'svc', password: 'unused' },
      },
    );
    expect(saved.password_set).toBe(true);
    const schedulerEnv = { ...env, SYNC_INTERVAL_MS: String(INTERVAL_MS), SYNC_TICK_MS: '100' };
    schedulers = [
      new AppProcess('sync-scheduler', schedulerEnv),
      new AppProcess('sync-scheduler', schedulerEnv),
    ];
    await Promise.all(schedulers.map((scheduler) => scheduler.start()));
  });

  afterAll(async () => {
    await Promise.all([...(schedulers ?? []), ...(apps ?? [])].map((app) => app.stop()));
    await nats?.close();
    await db?.drop();
  });

  async function requests(): Promise<Envelope<SyncRequested>[]> {
    const stream = nats.topology.streams.scheduler.name;
    return (await readEnvelopes(
      nats.jsm,
      stream,
      nats.topology.subjects.syncRequested('VMware.VirtualMachine'),
    )) as Envelope<SyncRequested>[];
  }

  function timesOf(events: Envelope<SyncRequested>[], uuid: string): number[] {
    return events
      .filter((event) => event.data.offeringUuid === uuid)
      .map((event) => Date.parse(event.occurredAt));
  }

  it('requests each non-archived vSphere offering once per interval, and nothing else', async () => {
    const started = Date.now();
    await sleep(3 * INTERVAL_MS + 500);
    const events = await requests();
    const elapsedIntervals = (Date.now() - started) / INTERVAL_MS;
    for (const name of ['first', 'second']) {
      const times = timesOf(events, offering[name]);
      // The first at start, then one per interval: never two inside one interval. The interval is
      // kept in Postgres's clock (the claim's now(), the transaction's start); an event's occurredAt
      // is stamped after the claim, a moment later, and that moment varies with the machine's load
      // (1,949 ms apart beside two busy loops): a tenth of the interval is left for it.
      expect(times.length).toBeGreaterThanOrEqual(Math.floor(elapsedIntervals));
      expect(times.length).toBeLessThanOrEqual(Math.ceil(elapsedIntervals) + 1);
      for (let i = 1; i < times.length; i++)
        expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(INTERVAL_MS * 0.9);
    }
    expect(timesOf(events, offering.archived)).toEqual([]);
    // The ERRED offering was really synchronised on each request, by the adapter, and stays ERRED.
    const integration = await api.ok<Json>(
      'staff',
      'GET',
      `/api/marketplace-provider-offerings/${offering.first}/integration/`,
    );
    expect(integration.state).toBe('ERRED');
    expect(integration.error_message).toMatch(/connect/i);
    expect(Date.parse(String(integration.last_sync_started))).toBeGreaterThanOrEqual(
      timesOf(events, offering.first).at(-2)!,
    );
    expect(timesOf(events, offering.basic)).toEqual([]);
  });

  it('goes on with the other instance when the leader is killed', async () => {
    // Which one leads is read off its log, only to choose whom to kill; the proof is the stream.
    const leader = schedulers.find((scheduler) =>
      scheduler.lines.some((line) => line.msg === 'synchronisations requested'),
    )!;
    const before = timesOf(await requests(), offering.first).length;
    await leader.stop('SIGKILL');
    await sleep(2 * INTERVAL_MS + 500);
    const times = timesOf(await requests(), offering.first);
    expect(times.length).toBeGreaterThanOrEqual(before + 1);
    for (let i = 1; i < times.length; i++)
      expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(INTERVAL_MS - 50);
  });
});
