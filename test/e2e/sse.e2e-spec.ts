import { readFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { createParser } from 'eventsource-parser';
import { ApiSession, type Json } from '../support/api-session';
import { ApiSystem } from '../support/api-system';
import { parseAnswer } from '../support/raw-http';
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
    system = await ApiSystem.start('sse', {
      gatewayEnv: {
        SSE_HEARTBEAT_MS: '300',
        SSE_QUEUE_LIMIT_BYTES: '1048576',
        SSE_RECHECK_MS: '1000',
        // The resume test holds a dozen streams of one user at once.
        SSE_MAX_STREAMS_PER_USER: '32',
      },
    });
    api = await system.session();
    feed = new FeedPublisher(system.nats);
    for (const name of ['ownerA', 'memberA', 'memberB', 'memberC', 'providerP', 'outsider'])
      await api.user(name, 'staff');
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
    expect(stored!.json<{ data: { order: { uuid: string } } }>().data.order.uuid).toBe(order.uuid);
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
    // Every event before the marker has been fanned out once the marker arrived (one reader, in
    // feed order); each client's own socket may still carry its share.
    const expectedCounts: [SseClient, number][] = [
      [byProject, 2],
      [byCustomer, 6],
      [byType, 1],
      [byOrder, 2],
      [byResource, 2],
      [byOffering, 2],
    ];
    for (const [client, count] of expectedCounts) await client.waitForCount(count, 20_000);
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
    // Published while clients reconnect: an event published as one joins lands both in its replay
    // and in its live buffer. Many resumers, staggered through a burst, so some do meet that moment.
    const racing = Array.from({ length: 300 }, () => orderView(scopeA));
    const publishing = (async () => {
      for (let i = 0; i < racing.length; i += 5)
        await Promise.all(racing.slice(i, i + 5).map((order) => feed.order(order)));
    })();
    const resumers: Promise<SseClient>[] = [];
    for (let i = 0; i < 12; i++) {
      resumers.push(open('memberA', '', { lastEventId: lastId }));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await publishing;
    const after = orderView(scopeA);
    await feed.order(after);
    // Concurrent publishes may be stored in any order: the feed's order is the expected one.
    const all = await open('memberA', '', { lastEventId: lastId });
    const expected = missed.length + racing.length + 1;
    await all.waitForCount(expected, 20_000);
    expect(new Set(orderUuids(all))).toEqual(new Set([...missed, ...racing, after].map((o) => o.uuid)));
    expect(orderUuids(all).slice(0, missed.length)).toEqual(missed.map((o) => o.uuid));
    for (const resumed of await Promise.all(resumers)) {
      await resumed.waitForCount(expected, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(orderUuids(resumed)).toEqual(orderUuids(all));
      const ids = resumed.messages.map((m) => Number(m.id));
      expect(ids[0]).toBeGreaterThan(Number(lastId));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    }
    // The same with ?last_event_id= for clients that cannot send the header.
    const byQuery = await open('memberA', `?last_event_id=${lastId}`);
    await byQuery.waitForCount(expected);
    expect(orderUuids(byQuery)).toEqual(orderUuids(all));
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
    await client.waitFor((c) => orderUuids(c).includes(shown.uuid), 10_000, 'the PB2 event');
    // A stream keeps the feed's order: `hidden`, published before `shown`, would be here by now.
    expect(orderUuids(client)).not.toContain(hidden.uuid);
    expect(orderUuids(client)).toHaveLength(2);

    await api.ok('staff', 'POST', `/api/users/${api.users.memberB}/revoke_tokens/`);
    await feed.access([api.users.memberB]);
    await client.waitFor((c) => c.ended, 10_000, 'the stream to end');
  });

  it('re-checks every stream periodically: a role revoked without an AccessChanged stops its events too', async () => {
    for (const project of [scopeB1.project_uuid, scopeB2.project_uuid])
      await api.ok('staff', 'POST', `/api/projects/${project}/add_user/`, {
        user: api.users.memberC,
        role: 'PROJECT.MEMBER',
      });
    const client = await open('memberC');
    const seen = orderView(scopeB2);
    await feed.order(seen);
    await client.waitForCount(1);
    await system.sql(
      `DELETE FROM "marketplace"."project_permissions" WHERE "project_uuid" = $1 AND "user_uuid" = $2`,
      [scopeB2.project_uuid, api.users.memberC],
    );
    // Revoked where no AccessChanged is published (the API's delete_user publishes one, which acts
    // at once: the test above), as an AccessChanged lost or a grant removed by hand leaves it. Only
    // the re-check (SSE_RECHECK_MS, 1 s in this suite) can hide B2 from the stream. Pairs of a B2
    // event and a B1 event (B1 it still sees) until a pair's B1 event arrives without its B2 one: a
    // stream keeps the feed's order, so the B2 event, had it been sent, would be there by then.
    // States, not a guess at how long a re-check takes.
    const expected = [seen.uuid];
    const deadline = Date.now() + 30_000;
    for (;;) {
      const hidden = orderView(scopeB2);
      const shown = orderView(scopeB1);
      await feed.order(hidden);
      await feed.order(shown);
      await client.waitFor((c) => orderUuids(c).includes(shown.uuid), 10_000, 'the B1 event');
      const rechecked = !orderUuids(client).includes(hidden.uuid);
      expected.push(...(rechecked ? [shown.uuid] : [hidden.uuid, shown.uuid]));
      if (rechecked) break;
      if (Date.now() > deadline) throw new Error('no re-check hid project B2 from the stream in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Once hidden, for good: the next B2 event does not come either.
    const later = orderView(scopeB2);
    const last = orderView(scopeB1);
    await feed.order(later);
    await feed.order(last);
    await client.waitFor((c) => orderUuids(c).includes(last.uuid), 10_000, 'the last B1 event');
    expect(orderUuids(client)).toEqual([...expected, last.uuid]);
  });

  const metricsText = async (): Promise<string> => (await fetch(system.gateway.metricsUrl)).text();

  /** The gateway's RSS, from the kernel. */
  function gatewayRssMb(): number {
    const status = readFileSync(`/proc/${system.gateway.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  }

  it('drops a client that never reads with a final overflow event, and keeps its memory bounded', async () => {
    const reader = await open('staff', `?project_uuid=${scopeB2.project_uuid}`);
    // A raw client that sends its request and then never reads a byte.
    const stalled = netConnect(system.port, '127.0.0.1');
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(
      `GET /api/events?project_uuid=${scopeB2.project_uuid} HTTP/1.1\r\nHost: 127.0.0.1:${system.port}\r\n` +
        `Authorization: Token ${api.tokens.staff}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    stalled.pause();
    // The gateway gives a dropped client 5 s to read its final message before it closes the socket:
    // this one starts reading as soon as it has been dropped, while the publishing goes on.
    const bytes: Buffer[] = [];
    stalled.on('data', (chunk: Buffer) => bytes.push(chunk));
    const closed = new Promise((resolve) => stalled.once('close', resolve));
    const readOnceDropped = (async () => {
      while (!/sse_streams_ended_total\{[^}]*reason="overflow"[^}]*\} 1/.test(await metricsText()))
        await new Promise((resolve) => setTimeout(resolve, 50));
      stalled.resume();
      await closed;
    })();
    const rssBefore = gatewayRssMb();
    // 600 events of 64 KiB: about 38 MiB, far more than the 1 MiB queue limit and the kernel's buffers.
    const padding = 'x'.repeat(64 * 1024);
    const count = 600;
    for (let i = 1; i <= count; i++) {
      await feed.order(orderView(scopeB2, { attributes: { padding } }));
      // Published as fast as a reading client takes them: it is never the one that falls behind.
      if (i % 50 === 0) await reader.waitForCount(i, 20_000);
    }
    const rssAfter = gatewayRssMb();
    const metrics = await metricsText();
    expect(metrics).toMatch(/sse_streams_ended_total\{[^}]*reason="overflow"[^}]*\} 1/);
    // What the gateway held for any one client never passed the limit by more than one event.
    const peak = Number(/^sse_queue_peak_bytes\{[^}]*\} (\d+)/m.exec(metrics)![1]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(1_048_576 + 70_000);
    // And the process stayed small while ~38 MiB went past it (garbage included: no GC is forced).
    console.log(`gateway RSS ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after`);
    expect(rssAfter).toBeLessThan(300);

    // What it was sent: events, then the final message naming the last id it got. Read whole and
    // de-chunked once the gateway has closed: a chunk's size line may span two reads.
    await readOnceDropped;
    const answer = parseAnswer(Buffer.concat(bytes));
    expect(answer?.status).toBe(200);
    const received: { id?: string; event?: string; data: string }[] = [];
    createParser({ onEvent: (message) => received.push(message) }).feed(answer!.body);
    const last = received[received.length - 1];
    expect(last.event).toBe('overflow');
    const before = received[received.length - 2];
    expect(JSON.parse(last.data)).toEqual({
      detail: 'The client fell behind the event stream; reconnect with Last-Event-ID to resume.',
      last_event_id: before.id,
    });
    expect(received.length - 1).toBeLessThan(count);
  });

  describe('GET /api/marketplace-orders/{uuid}/events', () => {
    it('answers 400 for a bad uuid, and 404 for an order the caller cannot see', async () => {
      const bad = await SseClient.open(`${api.base}/api/marketplace-orders/nope/events`, {
        token: api.tokens.staff,
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ uuid: ['Must be a valid UUID.'] });
      const unknown = await SseClient.open(
        `${api.base}/api/marketplace-orders/0d0d0d0d-0000-4000-8000-000000000004/events`,
        { token: api.tokens.staff },
      );
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ detail: 'Not found.' });
    });

    it("streams a real order's current state, then its and its resource's changes, and ends at a terminal state", async () => {
      // A Marketplace.Basic order of project PA, placed by its organisation's owner: it waits for
      // the provider, who approves it and completes it by hand.
      const offering = await api.ok<Json & { uuid: string; plans: { uuid: string }[] }>(
        'staff',
        'POST',
        '/api/marketplace-provider-offerings/',
        { name: 'Consulting', type: 'Marketplace.Basic', customer: scopeA.provider_uuid },
      );
      await api.ok('staff', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);
      const everything = await open('staff');
      const order = await api.ok<Json & { uuid: string; state: string }>(
        'ownerA',
        'POST',
        '/api/marketplace-orders/',
        { offering: offering.uuid, project: scopeA.project_uuid, plan: offering.plans[0].uuid },
      );
      expect(order.state).toBe('pending-provider');
      // Its creation relayed to the feed (milliseconds after the commit): the snapshot below is then
      // exact. A snapshot read before the relay published covers the late events on the live stream
      // (by their time), but a resume from the snapshot's id would replay them.
      await everything.waitFor((c) => orderUuids(c).includes(order.uuid), 5_000, 'the order in the feed');
      const client = await SseClient.open(`${api.base}/api/marketplace-orders/${order.uuid}/events`, {
        token: api.tokens.memberA,
      });
      clients.push(client);
      expect(client.status).toBe(200);
      await client.waitForCount(1);
      expect(client.messages[0].event).toBe('OrderStateChanged');
      expect(JSON.parse(client.messages[0].data)).toMatchObject({
        uuid: order.uuid,
        state: 'pending-provider',
      });

      await api.ok('staff', 'POST', `/api/marketplace-orders/${order.uuid}/approve_by_provider/`);
      await api.ok('staff', 'POST', `/api/marketplace-orders/${order.uuid}/set_state_done/`);
      await client.waitFor((c) => c.ended, 10_000, 'the stream to end');
      expect(client.messages.map((m) => [m.event, (JSON.parse(m.data) as { state: string }).state])).toEqual([
        ['OrderStateChanged', 'pending-provider'],
        ['OrderStateChanged', 'executing'],
        ['ResourceStateChanged', 'OK'],
        ['OrderStateChanged', 'done'],
      ]);

      // Reconnecting from before the end: the missed events up to the terminal one, then the end.
      const missed = await SseClient.open(`${api.base}/api/marketplace-orders/${order.uuid}/events`, {
        token: api.tokens.memberA,
        lastEventId: client.messages[0].id,
      });
      await missed.waitFor((c) => c.ended, 5_000, 'the resumed stream to end');
      expect(missed.messages.map((m) => m.id)).toEqual(client.messages.slice(1).map((m) => m.id));
      // Reconnecting after the end: 204, which tells an EventSource to stop.
      const again = await SseClient.open(`${api.base}/api/marketplace-orders/${order.uuid}/events`, {
        token: api.tokens.memberA,
        lastEventId: client.messages[3].id,
      });
      expect(again.status).toBe(204);
      // Another organisation's member is answered as the order service answers it: 404.
      const stranger = await SseClient.open(`${api.base}/api/marketplace-orders/${order.uuid}/events`, {
        token: api.tokens.outsider,
      });
      // The body too, so that a failure shows what the stranger was sent.
      expect({ status: stranger.status, body: stranger.raw.slice(0, 300) }).toMatchObject({ status: 404 });
    });
  });

  it('updates the history kept when SSE_HISTORY_HOURS changes, and says so when a resume asks for more', async () => {
    await system.restartGateway({ SSE_HISTORY_HOURS: '0.0003' }); // about a second
    const info = await system.nats.jsm.streams.info(system.nats.topology.feed.name);
    expect(info.config.max_age).toBe(1_080_000_000); // nanoseconds
    const old = orderView(scopeA);
    await feed.order(old);
    const first = await open('memberA', '', { lastEventId: 0 });
    await first.waitFor((c) => orderUuids(c).includes(old.uuid), 5_000, 'the old event');
    const oldId = Number(first.messages.find((m) => m.data.includes(old.uuid))!.id);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const kept = orderView(scopeA);
    await feed.order(kept);
    const resumed = await open('memberA', '', { lastEventId: oldId - 1 });
    await resumed.waitForCount(2);
    expect(resumed.messages[0].event).toBe('history-lost');
    expect(resumed.messages[0].id).toBeUndefined();
    expect(JSON.parse(resumed.messages[0].data)).toEqual({
      detail:
        'Events after the given Last-Event-ID are no longer kept; the stream continues from the oldest event held.',
      last_event_id: String(oldId - 1),
      first_available_id: resumed.messages[1].id,
    });
    expect(orderUuids(resumed)).toEqual([kept.uuid]);
    await system.restartGateway({ SSE_HISTORY_HOURS: '24' });
    const restored = await system.nats.jsm.streams.info(system.nats.topology.feed.name);
    expect(restored.config.max_age).toBe(24 * 3_600 * 1e9);
  });
});
