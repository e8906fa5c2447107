import { ApiSession, type Json } from '../support/api-session';
import { ApiSystem } from '../support/api-system';
import { FeedPublisher, orderView, resourceView, type FeedScope } from '../support/feed-publisher';
import { SseClient } from '../support/sse-client';

jest.setTimeout(120_000);

/**
 * `GET /api/events` with the real gateway and order service as processes: events are published on
 * the suite's feed subjects as the order service publishes them; users, customers and projects are
 * real, made through the REST identity API.
 */
describe('SSE: GET /api/events', () => {
  let system: ApiSystem;
  let api: ApiSession;
  let feed: FeedPublisher;
  /** Organisation A (owned by ownerA, project PA with memberA) and B (project PB1, PB2 with memberB). */
  let scopeA: FeedScope;
  let scopeB1: FeedScope;
  let scopeB2: FeedScope;
  const clients: SseClient[] = [];

  async function customer(name: string): Promise<string> {
    return (await api.ok<Json>('staff', 'POST', '/api/customers/', { name })).uuid as string;
  }
  async function project(name: string, customerUuid: string): Promise<string> {
    return (
      await api.ok<Json>('staff', 'POST', '/api/projects/', {
        name,
        customer: `${api.base}/api/customers/${customerUuid}/`,
      })
    ).uuid as string;
  }

  async function open(who: string, query = '', options: { lastEventId?: string | number } = {}) {
    const client = await SseClient.open(`${api.base}/api/events${query}`, {
      token: api.tokens[who],
      ...options,
    });
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    system = await ApiSystem.start('sse', { gatewayEnv: { SSE_HEARTBEAT_MS: '300' } });
    api = new ApiSession(system.base, system.db.url);
    api.tokens.staff = system.staffToken;
    api.users.staff = (await api.ok<Json>('staff', 'GET', '/api/users/me/')).uuid as string;
    feed = new FeedPublisher(system.nats);
    for (const name of ['ownerA', 'memberA', 'memberB', 'providerP']) await api.user(name, 'staff');
    const [orgA, orgB, provider] = [
      await customer('Org A'),
      await customer('Org B'),
      await customer('Provider P'),
    ];
    const [pa, pb1, pb2] = [
      await project('PA', orgA),
      await project('PB1', orgB),
      await project('PB2', orgB),
    ];
    await api.ok('staff', 'POST', `/api/customers/${orgA}/add_user/`, {
      user: api.users.ownerA,
      role: 'CUSTOMER.OWNER',
    });
    await api.ok('staff', 'POST', `/api/customers/${provider}/add_user/`, {
      user: api.users.providerP,
      role: 'CUSTOMER.OWNER',
    });
    await api.ok('staff', 'POST', `/api/projects/${pa}/add_user/`, {
      user: api.users.memberA,
      role: 'PROJECT.MEMBER',
    });
    for (const pb of [pb1, pb2])
      await api.ok('staff', 'POST', `/api/projects/${pb}/add_user/`, {
        user: api.users.memberB,
        role: 'PROJECT.ADMIN',
      });
    const offering = '0b0b0b0b-0000-4000-8000-000000000001';
    scopeA = { project_uuid: pa, customer_uuid: orgA, provider_uuid: provider, offering_uuid: offering };
    scopeB1 = { project_uuid: pb1, customer_uuid: orgB, provider_uuid: provider, offering_uuid: offering };
    scopeB2 = { ...scopeB1, project_uuid: pb2 };
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('streams each event with the feed sequence as id, its type as event, and its REST form as data', async () => {
    const client = await open('staff');
    expect(client.status).toBe(200);
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const order = orderView(scopeA);
    await feed.order(order);
    await feed.resource(resourceView(order, 'Creating'), order.uuid);
    await client.waitForCount(2);
    const [first, second] = client.messages;
    expect([first.event, second.event]).toEqual(['OrderStateChanged', 'ResourceStateChanged']);
    expect(Number(second.id)).toBe(Number(first.id) + 1);
    // The id is the feed stream's own sequence: the message stored there is this event.
    const stored = await system.nats.jsm.streams.getMessage(system.nats.topology.feed.name, {
      seq: Number(first.id),
    });
    expect(stored.json<{ data: { order: { uuid: string } } }>().data.order.uuid).toBe(order.uuid);
    expect(JSON.parse(first.data)).toEqual({
      ...order,
      url: `${api.base}/api/marketplace-orders/${order.uuid}/`,
      offering: `${api.base}/api/marketplace-public-offerings/${order.offering_uuid}/`,
      plan: null,
      project: `${api.base}/api/projects/${order.project_uuid}/`,
      customer: `${api.base}/api/customers/${order.customer_uuid}/`,
      marketplace_resource: `${api.base}/api/marketplace-resources/${order.marketplace_resource_uuid}/`,
      created_by: null,
    });
    expect(JSON.parse(second.data)).toMatchObject({
      url: `${api.base}/api/marketplace-resources/${order.marketplace_resource_uuid}/`,
      state: 'Creating',
    });
    // Heartbeats: comment lines every SSE_HEARTBEAT_MS (300 ms here).
    await client.waitFor((c) => c.comments >= 2, 2_000, 'two heartbeats');
  });

  it('refuses a bad filter with 400 naming the parameter, and a missing token with 401', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['?order_uuid=nope', {}, 'order_uuid'],
      ['?project_uuid=1', {}, 'project_uuid'],
      ['?type=OrderStateChanged,Nope', {}, 'type'],
      ['?type=AccessChanged', {}, 'type'],
      ['?last_event_id=-1', {}, 'last_event_id'],
      ['', { 'Last-Event-ID': 'abc' }, 'Last-Event-ID'],
    ];
    for (const [query, headers, field] of cases) {
      const client = await SseClient.open(`${api.base}/api/events${query}`, {
        token: api.tokens.staff,
        headers,
      });
      expect([query, client.status]).toEqual([query, 400]);
      expect(Object.keys((await client.json()) as Json)).toEqual([field]);
    }
    const anonymous = await SseClient.open(`${api.base}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const bad = await SseClient.open(`${api.base}/api/events`, { token: 'not-a-token' });
    expect(bad.status).toBe(401);
  });

  /** The order uuids of a client's OrderStateChanged events, in arrival order. */
  const orderUuids = (client: SseClient) =>
    client.data<{ uuid: string }>('OrderStateChanged').map((o) => o.uuid);

  it('applies every filter given, together', async () => {
    const byProject = await open('staff', `?project_uuid=${scopeB1.project_uuid}`);
    const byCustomer = await open('staff', `?customer_uuid=${scopeB1.customer_uuid}`);
    const byType = await open('staff', `?type=ResourceStateChanged&project_uuid=${scopeA.project_uuid}`);
    const inA = orderView(scopeA);
    const inB1 = orderView(scopeB1);
    const inB2 = orderView(scopeB2);
    const byOrder = await open('staff', `?order_uuid=${inB1.uuid}`);
    const byResource = await open('staff', `?resource_uuid=${inB2.marketplace_resource_uuid}`);
    const otherOffering = orderView({ ...scopeB2, offering_uuid: '0b0b0b0b-0000-4000-8000-000000000002' });
    const byOffering = await open('staff', `?offering_uuid=${otherOffering.offering_uuid}`);
    for (const order of [inA, inB1, inB2, otherOffering]) {
      await feed.order(order);
      await feed.resource(resourceView(order, 'Creating'), order.uuid);
    }
    const marker = orderView(scopeA);
    const all = await open('staff');
    await feed.order(marker);
    await all.waitForCount(1);
    // Every event before the marker has been fanned out once the marker arrived: one reader, in feed order.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orderUuids(byProject)).toEqual([inB1.uuid]);
    expect(byProject.events().map((m) => m.event)).toEqual(['OrderStateChanged', 'ResourceStateChanged']);
    expect(orderUuids(byCustomer)).toEqual([inB1.uuid, inB2.uuid, otherOffering.uuid]);
    expect(byType.events().map((m) => m.event)).toEqual(['ResourceStateChanged']);
    expect(byType.data<{ uuid: string }>()[0].uuid).toBe(inA.marketplace_resource_uuid);
    // An order's events: the order's own and the resource changes it caused (correlationId).
    expect(byOrder.events().map((m) => m.event)).toEqual(['OrderStateChanged', 'ResourceStateChanged']);
    expect(byResource.data<{ uuid: string }>().map((d) => d.uuid)).toEqual([
      inB2.uuid,
      inB2.marketplace_resource_uuid,
    ]);
    expect(orderUuids(byOffering)).toEqual([otherOffering.uuid]);
  });

  it('two organisations with mixed traffic: each subscriber sees only what it may see', async () => {
    const watchers = {
      ownerA: await open('ownerA'),
      memberA: await open('memberA'),
      memberB: await open('memberB'),
      providerP: await open('providerP'),
    };
    const otherProvider = { ...scopeA, provider_uuid: '0c0c0c0c-0000-4000-8000-000000000003' };
    const published: { uuid: string; scope: FeedScope }[] = [];
    for (let i = 0; i < 30; i++) {
      const scope = [scopeA, scopeB1, scopeB2, otherProvider][i % 4];
      const order = orderView(scope);
      published.push({ uuid: order.uuid, scope });
      await feed.order(order);
    }
    const expected = {
      ownerA: published.filter((p) => p.scope.customer_uuid === scopeA.customer_uuid),
      memberA: published.filter((p) => p.scope.project_uuid === scopeA.project_uuid),
      memberB: published.filter((p) => p.scope.customer_uuid === scopeB1.customer_uuid),
      providerP: published.filter((p) => p.scope.provider_uuid === scopeA.provider_uuid),
    };
    for (const [who, client] of Object.entries(watchers)) {
      const wanted = expected[who as keyof typeof expected].map((p) => p.uuid);
      await client.waitForCount(wanted.length);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([who, orderUuids(client)]).toEqual([who, wanted]);
    }
  });

  it('resumes with Last-Event-ID: every missed event once, in order, joined to the live stream without a gap', async () => {
    const first = await open('memberA');
    const before = [orderView(scopeA), orderView(scopeA)];
    for (const order of before) await feed.order(order);
    await first.waitForCount(2);
    const lastId = first.messages[1].id!;
    first.close();
    const missed = Array.from({ length: 5 }, () => orderView(scopeA));
    for (const order of missed) await feed.order(order);
    // Published while the client reconnects: some land in the replay, some in the live buffer.
    const racing = Array.from({ length: 40 }, () => orderView(scopeA));
    const publishing = (async () => {
      for (const order of racing) await feed.order(order);
    })();
    const resumed = await open('memberA', '', { lastEventId: lastId });
    await publishing;
    const after = orderView(scopeA);
    await feed.order(after);
    await resumed.waitForCount(missed.length + racing.length + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orderUuids(resumed)).toEqual([...missed, ...racing, after].map((o) => o.uuid));
    const ids = resumed.messages.map((m) => Number(m.id));
    expect(ids[0]).toBeGreaterThan(Number(lastId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    // The same with ?last_event_id= for clients that cannot send the header.
    const byQuery = await open('memberA', `?last_event_id=${lastId}`);
    await byQuery.waitForCount(missed.length + racing.length + 1);
    expect(orderUuids(byQuery)).toEqual(orderUuids(resumed));
  });

  it('resumes across a gateway restart: what was published while it was down arrives', async () => {
    const client = await open('memberB');
    const before = orderView(scopeB1);
    await feed.order(before);
    await client.waitForCount(1);
    const lastId = client.messages[0].id!;
    await system.gateway.stop();
    client.close();
    const whileDown = Array.from({ length: 4 }, () => orderView(scopeB2));
    for (const order of whileDown) await feed.order(order);
    await system.restartGateway();
    const resumed = await open('memberB', '', { lastEventId: lastId });
    const after = orderView(scopeB1);
    await feed.order(after);
    await resumed.waitForCount(5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orderUuids(resumed)).toEqual([...whileDown, after].map((o) => o.uuid));
  });

  it("a revoked project role stops that project's events at once; a revoked token ends the stream", async () => {
    const client = await open('memberB');
    await feed.order(orderView(scopeB1));
    await client.waitForCount(1);
    const revokedAt = Date.now();
    await api.ok('staff', 'POST', `/api/projects/${scopeB1.project_uuid}/delete_user/`, {
      user: api.users.memberB,
      role: 'PROJECT.ADMIN',
    });
    await feed.access([api.users.memberB]);
    // Published right after the AccessChanged: held until memberB's access is known again, then checked.
    const hidden = orderView(scopeB1);
    const shown = orderView(scopeB2);
    await feed.order(hidden);
    await feed.order(shown);
    await client.waitFor((c) => orderUuids(c).includes(shown.uuid), 1_000, 'the PB2 event within a second');
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orderUuids(client)).not.toContain(hidden.uuid);
    expect(orderUuids(client)).toHaveLength(2);

    await api.ok('staff', 'POST', `/api/users/${api.users.memberB}/revoke_tokens/`);
    await feed.access([api.users.memberB]);
    await client.waitFor((c) => c.ended, 1_000, 'the stream to end');
  });
});
