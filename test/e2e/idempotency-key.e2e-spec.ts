import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Json } from '../support/api-session';
import { ApiSystem } from '../support/api-system';
import { eventually } from '../support/virtual-machines';

jest.setTimeout(120_000);

type Order = Json & { uuid: string; state: string; marketplace_resource_uuid: string };

/**
 * `Idempotency-Key` on the creating POSTs of orders (the IETF httpapi draft's semantics), and the
 * gateway's deadline that the order service keeps: through the gateway, on a `Marketplace.Basic`
 * offering, counting the orders stored.
 */
describe('Idempotency-Key and the gateway deadline on POST /api/marketplace-orders/', () => {
  let system: ApiSystem;
  let tokens: Record<string, string>;
  let project: string;
  let offering: Json & { uuid: string; plans: { uuid: string }[] };
  let offeringBody: Json;

  beforeAll(async () => {
    system = await ApiSystem.start('idempotency');
    const api = await system.session();
    for (const name of ['owner', 'manager', 'provider']) await api.user(name, 'staff');
    const org = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Org' })).uuid as string;
    const providerOrg = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Provider' }))
      .uuid as string;
    for (const [customer, user] of [
      [org, 'owner'],
      [providerOrg, 'provider'],
    ])
      await api.ok('staff', 'POST', `/api/customers/${customer}/add_user/`, {
        user: api.users[user],
        role: 'CUSTOMER.OWNER',
      });
    project = (await api.ok('owner', 'POST', '/api/projects/', { name: 'P', customer: org })).uuid as string;
    await api.ok('staff', 'POST', `/api/projects/${project}/add_user/`, {
      user: api.users.manager,
      role: 'PROJECT.MANAGER',
    });
    offeringBody = { name: 'Consulting', type: 'Marketplace.Basic', customer: providerOrg };
    offering = await api.ok('provider', 'POST', '/api/marketplace-provider-offerings/', offeringBody);
    await api.ok('provider', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);
    tokens = api.tokens;
  });

  afterAll(async () => {
    await system?.stop();
  });

  const body = (name: string, overrides: Json = {}): Json => ({
    offering: offering.uuid,
    project,
    plan: offering.plans[0].uuid,
    attributes: { name },
    limits: { days: 2 },
    ...overrides,
  });

  const post = (who: string, path: string, payload: Json, key?: string) =>
    system.call<Json>(
      tokens[who],
      'POST',
      path,
      payload,
      key === undefined ? {} : { 'Idempotency-Key': key },
    );

  const place = (name: string, key?: string, who = 'owner', overrides: Json = {}) =>
    post(who, '/api/marketplace-orders/', body(name, overrides), key);

  async function ordersNamed(name: string): Promise<number> {
    const [row] = await system.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM marketplace.orders WHERE attributes->>'name' = $1`,
      [name],
    );
    return row.n;
  }

  it('answers a retry with the same key and body as the first time (status and body), and stores one order', async () => {
    const key = `"${randomUUID()}"`;
    const first = await place('retried', key);
    const again = await place('retried', key);

    expect(first.status).toBe(201);
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    expect(await ordersNamed('retried')).toBe(1);
  });

  it('creates an order per request without a key', async () => {
    await place('keyless');
    await place('keyless');
    expect(await ordersNamed('keyless')).toBe(2);
  });

  it('refuses the same key with another body: 422 naming the header, nothing more stored', async () => {
    const key = randomUUID();
    expect((await place('first-body', key)).status).toBe(201);
    const other = await place('other-body', key);

    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).toMatch(/Idempotency-Key/);
    expect(await ordersNamed('other-body')).toBe(0);
  });

  it('keeps keys per user: another user sending the same key and body makes an order of their own', async () => {
    const key = randomUUID();
    const byOwner = await place('per-user', key, 'owner');
    const byManager = await place('per-user', key, 'manager');

    expect([byOwner.status, byManager.status]).toEqual([201, 201]);
    expect(byManager.body.uuid).not.toBe(byOwner.body.uuid);
    expect(await ordersNamed('per-user')).toBe(2);
  });

  it('keeps no answer for a refused request: the corrected request under the same key is carried out', async () => {
    const key = randomUUID();
    const refused = await place('corrected', key, 'owner', { plan: randomUUID() });
    expect(refused.status).toBe(400);
    expect((await place('corrected', key)).status).toBe(201);
    expect(await ordersNamed('corrected')).toBe(1);
  });

  it('refuses a malformed header with 400 naming it, and stores nothing', async () => {
    const answer = await place('malformed', '""');
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { 'Idempotency-Key': ['This header may not be blank.'] },
    });
    expect(await ordersNamed('malformed')).toBe(0);
  });

  it('answers 409 to a retry while the first request is still being processed, then the first answer', async () => {
    const key = randomUUID();
    const blocker = await lockOrders();
    let first: Promise<Awaited<ReturnType<typeof place>>>;
    try {
      first = place('in-flight', key);
      await eventually(
        () => waitingOnLocks(),
        (n) => n > 0,
        10_000,
        'the first request held by the lock',
      );
      const second = await place('in-flight', key);
      expect(second.status).toBe(409);
      expect(JSON.stringify(second.body)).toMatch(/Idempotency-Key/);
    } finally {
      await blocker.query('COMMIT');
      await blocker.end();
    }
    const answered = await first;
    expect(answered.status).toBe(201);
    const third = await place('in-flight', key);
    expect({ status: third.status, body: third.body }).toEqual({ status: 201, body: answered.body });
    expect(await ordersNamed('in-flight')).toBe(1);
  });

  it('replays terminate and update_limits under their keys: one order each', async () => {
    const created = (await place('day-two')).body as Order;
    const complete = async (order: string) => {
      await system.ok(tokens.provider, 'POST', `/api/marketplace-orders/${order}/approve_by_provider/`);
      await system.ok(tokens.provider, 'POST', `/api/marketplace-orders/${order}/set_state_done/`);
    };
    await complete(created.uuid);
    const resource = `/api/marketplace-resources/${created.marketplace_resource_uuid}`;

    const updateKey = randomUUID();
    const update = await post('owner', `${resource}/update_limits/`, { limits: { days: 3 } }, updateKey);
    const updateAgain = await post('owner', `${resource}/update_limits/`, { limits: { days: 3 } }, updateKey);
    expect(update.status).toBe(200);
    expect(updateAgain.body).toEqual(update.body);
    await complete(String(update.body.order_uuid));

    const terminateKey = randomUUID();
    const terminate = await post('owner', `${resource}/terminate/`, {}, terminateKey);
    const terminateAgain = await post('owner', `${resource}/terminate/`, {}, terminateKey);
    expect(terminate.status).toBe(200);
    expect(terminateAgain.body).toEqual(terminate.body);

    const types = await system.sql<{ type: string }>(
      `SELECT type FROM marketplace.orders WHERE resource_uuid = $1 ORDER BY created`,
      [created.marketplace_resource_uuid],
    );
    expect(types.map((row) => row.type)).toEqual(['Create', 'Update', 'Terminate']);
  });

  it('replays an offering created under a key: one offering', async () => {
    const key = randomUUID();
    const create = () =>
      post('provider', '/api/marketplace-provider-offerings/', { ...offeringBody, name: 'Once' }, key);
    const first = await create();
    const again = await create();
    expect(first.status).toBe(201);
    expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body });
    const [row] = await system.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM marketplace.offerings WHERE name = 'Once'`,
    );
    expect(row.n).toBe(1);
  });

  describe('with a gateway that waits 1.5 s', () => {
    beforeAll(async () => {
      await system.restartGateway({ REQUEST_TIMEOUT_MS: '1500' });
    });

    it('commits nothing the gateway answered 503 for, and the retry under the key makes the one order', async () => {
      const key = randomUUID();
      const blocker = await lockOrders();
      let late: Awaited<ReturnType<typeof place>>;
      try {
        // Held past the gateway's deadline: the gateway gives up first.
        late = await place('past-deadline', key);
        expect(late.status).toBe(503);
        // It reached the order service, which holds it still, past the deadline it was given.
        expect(await waitingOnLocks()).toBeGreaterThan(0);
      } finally {
        await blocker.query('COMMIT');
        await blocker.end();
      }
      // The held request goes on once the lock is gone; it has ended when nothing waits or is open.
      await eventually(
        () => openTransactions(),
        (n) => n === 0,
        10_000,
        'the held request ended',
      );
      expect(await ordersNamed('past-deadline')).toBe(0);

      const retried = await place('past-deadline', key);
      expect(retried.status).toBe(201);
      expect(await ordersNamed('past-deadline')).toBe(1);
    });
  });

  /** Holds the orders table so order creations wait inside the order service. */
  async function lockOrders(): Promise<Client> {
    const blocker = new Client({ connectionString: system.db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE marketplace.orders IN SHARE MODE');
    return blocker;
  }

  async function waitingOnLocks(): Promise<number> {
    const [row] = await system.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return row.n;
  }

  /** Sessions of our database, other than this query's, inside a transaction or waiting on a lock. */
  async function openTransactions(): Promise<number> {
    const [row] = await system.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND (wait_event_type = 'Lock' OR state LIKE 'idle in transaction%' OR (state = 'active' AND xact_start IS NOT NULL))`,
    );
    return row.n;
  }
});
