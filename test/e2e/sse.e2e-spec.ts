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
});
