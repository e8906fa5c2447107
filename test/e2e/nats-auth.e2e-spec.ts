import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { firstValueFrom, timeout } from 'rxjs';
import {
  AccessChangedEvent,
  CALLER_CONTEXT,
  INTEGRATION_GET_PATTERN,
  INTEGRATION_UPDATE_PATTERN,
  NATS_APPS,
  OrderStateChangedEvent,
  OrderDoneEvent,
  OrderErredEvent,
  OrderSubmittedEvent,
  topology,
  USER_OPERATIONS,
  VM_LIST,
  VMWARE_VM_TYPE,
  type NatsApp,
  type RequestReply,
  type UserView,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { appConfigSchema, loadConfig } from '@app/platform';
import { ApiSession, type Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { startAuthNats, type AuthNats } from '../support/auth-nats';
import { freePort } from '../support/free-port';
import { orderView } from '../support/feed-publisher';
import { SseClient } from '../support/sse-client';
import { readEnvelopes } from '../support/stream-reader';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueToken } from '../support/test-env';
import {
  registerVcsimOffering,
  startVcsimWithTemplates,
  type RegisteredOffering,
  type VcsimWithTemplates,
} from '../support/vcsim-offering';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The project's apps against a nats-server with the project's generated permissions, and clients
// holding one app's credentials (as if its seed had been stolen) trying what that app may not do.
describe('NATS with the project’s authorization: each app may use only its own subjects', () => {
  const namespace = uniqueToken('tauth-');
  const names = topology(namespace);
  let nats: AuthNats;
  let db: TestDatabase;
  let observer: NatsConnection;
  let jsm: JetStreamManager;
  const apps: Partial<Record<NatsApp, AppProcess>> = {};
  const opened: { close(): Promise<void> }[] = [];
  let base: string;
  let staffToken: string;
  let vcsim: VcsimWithTemplates;
  let api: ApiSession;
  let market: RegisteredOffering;

  const appConfig = (app: NatsApp) =>
    loadConfig(appConfigSchema({}), {
      NATS_URL: nats.server.url,
      NATS_NAMESPACE: namespace,
      NATS_NKEY_SEED_FILE: nats.seedFile(app),
    });

  /** A core NATS connection holding `app`'s credentials. */
  async function connectAs(app: NatsApp): Promise<NatsConnection> {
    const nc = await connect({
      ...natsConnectionOptions(appConfig(app), app, `test-as-${app}`),
      reconnect: false,
    });
    opened.push(nc);
    return nc;
  }

  /**
   * Nest's request client holding `app`'s credentials, as the gateway asks the services; or the
   * test's own all-rights user (`observer`).
   */
  async function requesterAs(app: NatsApp | 'observer') {
    const client = new NamespacedNatsClient(
      app === 'observer'
        ? { servers: nats.server.url, ...nats.observer, reconnect: false }
        : natsConnectionOptions(appConfig(app), app, `test-as-${app}`),
      namespace,
    );
    await client.connect();
    opened.push(client);
    return <T>(pattern: string, payload: unknown) =>
      firstValueFrom(client.send<RequestReply<T>>(pattern, payload).pipe(timeout(3_000)));
  }

  async function rest(method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Token ${staffToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  async function storedIds(stream: keyof typeof names.streams, subject: string): Promise<string[]> {
    return (await readEnvelopes(jsm, names.streams[stream].name, subject)).map((envelope) => envelope.id);
  }

  async function startApp(app: NatsApp, env: Record<string, string>, ready?: string) {
    const process = new AppProcess(app, { ...env, NATS_NKEY_SEED_FILE: nats.seedFile(app) });
    apps[app] = process;
    await process.start(ready);
  }

  beforeAll(async () => {
    nats = await startAuthNats(namespace);
    db = await createTestDatabase('natsauth');
    vcsim = await startVcsimWithTemplates(`pw-${randomBytes(12).toString('hex')}`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: db.url,
      NATS_URL: nats.server.url,
      NATS_NAMESPACE: namespace,
      CONSUMER_ACK_WAIT_MS: '2000',
      OUTBOX_SWEEP_MS: '500',
    };
    const created = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), 'root'],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url } },
    );
    staffToken = created.stdout.trim().split('\n').pop()!; // create-staff migrated the schema
    await Promise.all([
      startApp('order-service', env),
      startApp('vsphere-adapter', {
        ...env,
        CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        VSPHERE_SYNC_SWEEP_MS: '500',
      }),
      startApp('sync-scheduler', env),
      startApp('gateway', { ...env, GATEWAY_PORT: String(port) }, 'gateway listening'),
    ]);
    observer = await connect({ servers: nats.server.url, ...nats.observer });
    jsm = await jetstreamManager(observer);
    api = new ApiSession(base, db.url);
    await api.adopt('staff', staffToken);
    // Registered and synchronised through REST, over the apps' own credentials.
    market = await registerVcsimOffering(api, vcsim);
  });

  afterAll(async () => {
    for (const connection of opened) await connection.close().catch(() => undefined);
    await observer?.close();
    await Promise.all(Object.values(apps).map((app) => app.stop()));
    await vcsim?.library.close();
    await vcsim?.sim.stop();
    await nats?.destroy();
    await db?.drop();
  });

  describe('the apps with their own credentials work as before', () => {
    it('GET /health through the gateway: 200, every service ok with its NATS up', async () => {
      const response = await fetch(`${base}/health`);
      const body = (await response.json()) as { services: Record<string, { status: string; nats: string }> };
      expect(response.status).toBe(200);
      expect(Object.values(body.services).map((service) => [service.status, service.nats])).toEqual([
        ['ok', 'up'],
        ['ok', 'up'],
        ['ok', 'up'],
      ]);
    });

    it('a REST call reaches the order service (token check, then the user)', async () => {
      const me = await rest('GET', '/api/users/me/');
      expect(me).toMatchObject({ status: 200, body: { username: 'root', is_staff: true } });
    });

    it('SSE: the gateway creates the feed stream and follows it with its own credentials', async () => {
      const feed = await jsm.streams.info(names.feed.name);
      expect(feed.config.sources?.map((source) => source.name)).toEqual(
        names.feed.sources.map((s) => s.stream),
      );
      const client = await SseClient.open(`${base}/api/events`, { token: staffToken });
      expect(client.status).toBe(200);
      // Published as the order service's relay publishes it, with the order service's credentials.
      const js = jetstream(await connectAs('order-service'));
      await publishEvent(
        js,
        names.subjects.accessChanged,
        buildEnvelope(AccessChangedEvent, { user_uuids: [randomUUID()] }, randomUUID()),
      );
      const order = orderView({
        project_uuid: randomUUID(),
        customer_uuid: randomUUID(),
        provider_uuid: randomUUID(),
        offering_uuid: randomUUID(),
      });
      await publishEvent(
        js,
        names.subjects.orderStateChanged,
        buildEnvelope(OrderStateChangedEvent, { order, previous_state: null }, order.uuid),
      );
      // Staff also see the offering's own events (its registration and synchronisation) as they come.
      const orderEvents = () => client.messages.filter((m) => m.event === 'OrderStateChanged');
      await client.waitFor(() => orderEvents().length >= 1, 5_000, 'the OrderStateChanged');
      expect(orderEvents().map((m) => JSON.parse(m.data) as { uuid: string })).toEqual([
        expect.objectContaining({ uuid: order.uuid }),
      ]);
      // AccessChanged is internal: never on a stream.
      expect(client.messages.map((m) => m.event)).not.toContain('AccessChanged');
      client.close();
    });

    it('a VM order travels gateway → order service → JetStream → adapter (vcsim) → order service and ends done', async () => {
      const order = await api.ok<{ uuid: string }>('member', 'POST', '/api/marketplace-orders/', {
        offering: market.offering.uuid,
        project: market.project.uuid,
        plan: market.offering.plans[0].uuid,
        attributes: { name: 'vm-1', template: market.templates[0].uuid },
        limits: { cpu: 1, ram: 1024 },
      });
      const settled = await eventually(async () => {
        const current = await api.ok<{ state: string }>(
          'member',
          'GET',
          `/api/marketplace-orders/${order.uuid}/`,
        );
        return ['executing', 'pending-consumer', 'pending-provider'].includes(current.state)
          ? undefined
          : current;
      }, 60_000);
      expect(settled.state).toBe('done');
      const done = await readEnvelopes(jsm, names.streams.vsphere.name, names.subjects.orderDone);
      expect(done.filter((envelope) => envelope.correlationId === order.uuid)).toHaveLength(1);
    });
  });

  describe('a client without credentials', () => {
    it('is refused by the server: it can neither publish OrderDone nor call marketplace.users.update', async () => {
      await expect(connect({ servers: nats.server.url, reconnect: false })).rejects.toThrow(
        /Authorization Violation/,
      );
      const client = new NamespacedNatsClient({ servers: nats.server.url, reconnect: false }, namespace);
      await expect(client.connect()).rejects.toThrow(/Authorization Violation/);
    });
  });

  describe('a client with the adapter’s credentials', () => {
    it('cannot call marketplace.users.update, even with a stolen staff token (here: make a user staff)', async () => {
      const user = (await rest('POST', '/api/users/', { username: 'plain-user' })).body as UserView;
      const stolen = {
        caller: { token: staffToken },
        params: { uuid: user.uuid },
        query: {},
        body: { is_staff: true },
      };

      const asAdapter = await requesterAs('vsphere-adapter');
      await expect(asAdapter(USER_OPERATIONS.update.pattern, stolen)).rejects.toThrow();
      expect((await rest('GET', `/api/users/${user.uuid}/`)).body).toMatchObject({ is_staff: false });

      // The same request from the gateway's credentials goes through: the permissions made the difference.
      const asGateway = await requesterAs('gateway');
      expect(await asGateway(USER_OPERATIONS.update.pattern, stolen)).toMatchObject({ status: 'ok' });
      expect((await rest('GET', `/api/users/${user.uuid}/`)).body).toMatchObject({ is_staff: true });
    });

    it('cannot publish marketplace events: nothing reaches the stream', async () => {
      const nc = await connectAs('vsphere-adapter');
      const orderUuid = '0b6f6d1e-6c0e-4b8e-9d58-2d8f3b7a9c10';
      const submitted = buildEnvelope(
        OrderSubmittedEvent,
        {
          orderUuid,
          orderType: 'Create',
          offeringUuid: market.offering.uuid,
          offeringType: VMWARE_VM_TYPE,
          projectUuid: market.project.uuid,
          marketplaceResourceUuid: '5f1d3c2b-7a8e-4c6d-9b0a-1e2f3a4b5c6d',
          attributes: {},
          limits: {},
        },
        orderUuid,
      );
      const subject = names.subjects.orderSubmitted(VMWARE_VM_TYPE);
      await expect(publishEvent(jetstream(nc), subject, submitted)).rejects.toThrow(/Permissions Violation/);
      nc.publish(subject, JSON.stringify(submitted));
      await nc.flush();
      expect(await storedIds('marketplace', subject)).not.toContain(submitted.id);
    });

    it('cannot take the order service’s requests (tokens to check) nor read the gateway’s replies', async () => {
      const nc = await connectAs('vsphere-adapter');
      const steal = nc.subscribe(names.requests.subject('marketplace.auth.authenticate'));
      const eavesdrop = nc.subscribe(`_INBOX.${namespace}.gateway.>`);
      // nats.js ends a refused subscription with the server's error.
      expect(String(await steal.closed)).toMatch(/Permissions Violation for Subscription/);
      expect(String(await eavesdrop.closed)).toMatch(/Permissions Violation for Subscription/);
      // And the order service still answers the gateway.
      expect((await rest('GET', '/api/users/me/')).status).toBe(200);
    });
  });

  describe('a client with the gateway’s credentials', () => {
    it('cannot send the order service’s internal requests to the adapter (vsphere-internal.*)', async () => {
      const asGateway = await requesterAs('gateway');
      const victim = randomUUID();
      const update = {
        offering_uuid: victim,
        service_attributes: { backend_url: 'https://attacker.example', username: 'x', password: 'y' },
      };
      await expect(asGateway(INTEGRATION_UPDATE_PATTERN, update)).rejects.toThrow();
      await expect(
        asGateway(INTEGRATION_GET_PATTERN, { offering_uuid: market.offering.uuid }),
      ).rejects.toThrow();
      // The adapter never saw the update: the order service (which may ask) finds no integration.
      const asOrderService = await requesterAs('order-service');
      expect(await asOrderService(INTEGRATION_GET_PATTERN, { offering_uuid: victim })).toMatchObject({
        status: 'error',
        code: 404,
      });
    });

    it('cannot act as a user it names: a request asserting user_uuid instead of a token is refused', async () => {
      const user = (await rest('POST', '/api/users/', { username: 'asserted-user' })).body as UserView;
      const staff = (await rest('GET', '/api/users/me/')).body as UserView;
      const asGateway = await requesterAs('gateway');
      const asserted = {
        caller: { user_uuid: staff.uuid },
        params: { uuid: user.uuid },
        query: {},
        body: { is_staff: true },
      };
      expect(await asGateway(USER_OPERATIONS.update.pattern, asserted)).toMatchObject({
        status: 'error',
        code: 400,
      });
      expect((await rest('GET', `/api/users/${user.uuid}/`)).body).toMatchObject({ is_staff: false });
      // Nor may it describe a caller to the adapter, nor have a user's context resolved by id.
      const described = {
        caller: { user_uuid: staff.uuid, is_staff: true, owned_customer_uuids: [], project_grants: [] },
        params: {},
        query: {},
        body: {},
      };
      expect(await asGateway(VM_LIST.pattern, described)).toMatchObject({ status: 'error', code: 400 });
      expect(
        await asGateway(CALLER_CONTEXT.pattern, {
          caller: { user_uuid: staff.uuid },
          params: {},
          query: {},
          body: {},
        }),
      ).toMatchObject({ status: 'error', code: 400 });
      // With the user's own token the adapter answers, having asked the order service who it is.
      expect(
        await asGateway(VM_LIST.pattern, { caller: { token: staffToken }, params: {}, query: {}, body: {} }),
      ).toMatchObject({ status: 'ok' });
    });

    it('cannot publish OrderDone: the stream does not store it and the order stays executing', async () => {
      // Orders of a Basic offering wait in executing for the provider's system, where an OrderDone
      // would move them on; the adapter's answer to a second one marks when the first would have moved.
      const [forged, marker] = [await executingBasicOrder(), await executingBasicOrder()];
      const done = buildEnvelope(
        OrderDoneEvent,
        {
          orderUuid: forged.uuid,
          marketplaceResourceUuid: forged.marketplace_resource_uuid,
          backendId: '421e4b8a-0c0f-4e39-9f1d-1d3b2c4a5f60',
        },
        forged.uuid,
      );
      const nc = await connectAs('gateway');
      await expect(publishEvent(jetstream(nc), names.subjects.orderDone, done)).rejects.toThrow(
        /Permissions Violation/,
      );
      nc.publish(names.subjects.orderDone, JSON.stringify(done));
      await nc.flush();
      const answer = buildEnvelope(
        OrderErredEvent,
        {
          orderUuid: marker.uuid,
          marketplaceResourceUuid: marker.marketplace_resource_uuid,
          errorMessage: 'marker',
        },
        marker.uuid,
      );
      await publishEvent(jetstream(await connectAs('vsphere-adapter')), names.subjects.orderErred, answer);

      await eventually(async () => ((await orderState(marker.uuid)) === 'erred' ? true : undefined));
      expect(await storedIds('vsphere', names.subjects.orderDone)).not.toContain(done.id);
      expect(await orderState(forged.uuid)).toBe('executing');
    });
  });

  /** An order of an active Basic offering of the customer's, approved by its provider: executing. */
  async function executingBasicOrder(): Promise<{ uuid: string; marketplace_resource_uuid: string }> {
    const basic = await api.ok<Json & { uuid: string; plans: { uuid: string }[] }>(
      'staff',
      'POST',
      '/api/marketplace-provider-offerings/',
      {
        name: `Consulting ${randomUUID().slice(0, 8)}`,
        type: 'Marketplace.Basic',
        customer: market.customer.uuid,
      },
    );
    await api.ok('staff', 'POST', `/api/marketplace-provider-offerings/${basic.uuid}/activate/`);
    const order = await api.ok<{ uuid: string; state: string; marketplace_resource_uuid: string }>(
      'staff',
      'POST',
      '/api/marketplace-orders/',
      {
        offering: basic.uuid,
        project: market.project.uuid,
        plan: basic.plans[0].uuid,
        attributes: { name: 'consulting' },
        limits: { days: 2 },
      },
    );
    if (order.state === 'pending-provider')
      await api.ok('staff', 'POST', `/api/marketplace-orders/${order.uuid}/approve_by_provider/`);
    expect(await orderState(order.uuid)).toBe('executing');
    return order;
  }

  async function orderState(uuid: string): Promise<string> {
    return (await api.ok<{ state: string }>('staff', 'GET', `/api/marketplace-orders/${uuid}/`)).state;
  }

  it('no app wrote its nkey seed to its log', () => {
    const seeds = NATS_APPS.map((app) => readFileSync(nats.seedFile(app), 'utf8').trim());
    const logs = JSON.stringify(Object.values(apps).map((app) => app.lines));
    for (const seed of seeds) expect(logs).not.toContain(seed);
  });
});
