import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { firstValueFrom, timeout } from 'rxjs';
import {
  AccessChangedEvent,
  NATS_APPS,
  OrderStateChangedEvent,
  OrderDoneEvent,
  OrderSubmittedEvent,
  ORDER_PATTERNS,
  topology,
  USER_OPERATIONS,
  VMWARE_OFFERING_TYPE,
  type NatsApp,
  type OfferingView,
  type BackboneOrderView,
  type RequestReply,
  type UserView,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { appConfigSchema, loadConfig } from '@app/platform';
import { AppProcess } from '../support/app-process';
import { startAuthNats, type AuthNats } from '../support/auth-nats';
import { freePort } from '../support/free-port';
import { orderView } from '../support/feed-publisher';
import { SseClient } from '../support/sse-client';
import { readEnvelopes } from '../support/stream-reader';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueToken } from '../support/test-env';
import { BACKBONE_PROJECT, createBackboneProject } from '../support/backbone-project';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const PROJECT = BACKBONE_PROJECT;

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function unwrap<T>(reply: RequestReply<T>): T {
  if (reply.status !== 'ok') throw new Error(`request refused: ${JSON.stringify(reply)}`);
  return reply.data;
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
  let offering: OfferingView;

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

  /** Nest's request client holding `app`'s credentials, as the gateway asks the services. */
  async function requesterAs(app: NatsApp) {
    const client = new NamespacedNatsClient(
      natsConnectionOptions(appConfig(app), app, `test-as-${app}`),
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
    await createBackboneProject(db.url);
    await Promise.all([
      startApp('order-service', env),
      startApp('vsphere-adapter', env),
      startApp('sync-scheduler', env),
      startApp('gateway', { ...env, GATEWAY_PORT: String(port) }, 'gateway listening'),
    ]);
    observer = await connect({ servers: nats.server.url, ...nats.observer });
    jsm = await jetstreamManager(observer);
    const ask = await requesterAs('gateway');
    offering = unwrap(
      await ask<OfferingView>(ORDER_PATTERNS.createOffering, {
        name: 'vCenter A',
        type: VMWARE_OFFERING_TYPE,
      }),
    );
  });

  afterAll(async () => {
    for (const connection of opened) await connection.close().catch(() => undefined);
    await observer?.close();
    await Promise.all(Object.values(apps).map((app) => app.stop()));
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
      await client.waitForCount(1);
      expect(client.messages.map((m) => m.event)).toEqual(['OrderStateChanged']);
      expect(JSON.parse(client.messages[0].data)).toMatchObject({ uuid: order.uuid });
      client.close();
    });

    it('an order travels order service → JetStream → adapter → order service and ends erred', async () => {
      const ask = await requesterAs('gateway');
      const order = unwrap(
        await ask<BackboneOrderView>(ORDER_PATTERNS.createOrder, {
          offering_uuid: offering.uuid,
          project_uuid: PROJECT,
          attributes: { name: 'vm-1' },
        }),
      );
      const settled = await eventually(async () => {
        const current = unwrap(await ask<BackboneOrderView>(ORDER_PATTERNS.getOrder, { uuid: order.uuid }));
        return current.state === 'executing' ? undefined : current;
      });
      expect(settled.state).toBe('erred');
      const erred = await readEnvelopes(jsm, names.streams.vsphere.name, names.subjects.orderErred);
      expect(erred.filter((envelope) => envelope.correlationId === order.uuid)).toHaveLength(1);
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
    it('cannot call marketplace.users.update (here: make a user staff in the name of the staff user)', async () => {
      const user = (await rest('POST', '/api/users/', { username: 'plain-user' })).body as UserView;
      const staff = (await rest('GET', '/api/users/me/')).body as UserView;
      const forged = {
        caller: { user_uuid: staff.uuid },
        params: { uuid: user.uuid },
        query: {},
        body: { is_staff: true },
      };

      const asAdapter = await requesterAs('vsphere-adapter');
      await expect(asAdapter(USER_OPERATIONS.update.pattern, forged)).rejects.toThrow();
      expect((await rest('GET', `/api/users/${user.uuid}/`)).body).toMatchObject({ is_staff: false });

      // The same request from the gateway's credentials goes through: the permissions made the difference.
      const asGateway = await requesterAs('gateway');
      expect(await asGateway(USER_OPERATIONS.update.pattern, forged)).toMatchObject({ status: 'ok' });
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
          offeringUuid: offering.uuid,
          offeringType: VMWARE_OFFERING_TYPE,
          projectUuid: PROJECT,
          resourceUuid: '5f1d3c2b-7a8e-4c6d-9b0a-1e2f3a4b5c6d',
          attributes: {},
          limits: {},
        },
        orderUuid,
      );
      const subject = names.subjects.orderSubmitted(VMWARE_OFFERING_TYPE);
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
    it('cannot publish OrderDone: the stream does not store it and the order stays executing', async () => {
      // Without the adapter the order waits in executing, where an OrderDone would move it to done.
      await apps['vsphere-adapter']!.stop();
      const ask = await requesterAs('gateway');
      const order = unwrap(
        await ask<BackboneOrderView>(ORDER_PATTERNS.createOrder, {
          offering_uuid: offering.uuid,
          project_uuid: PROJECT,
        }),
      );
      expect(order.state).toBe('executing');
      const done = buildEnvelope(
        OrderDoneEvent,
        {
          orderUuid: order.uuid,
          resourceUuid: order.marketplace_resource_uuid,
          backendId: '421e4b8a-0c0f-4e39-9f1d-1d3b2c4a5f60',
        },
        order.uuid,
      );
      const nc = await connectAs('gateway');
      await expect(publishEvent(jetstream(nc), names.subjects.orderDone, done)).rejects.toThrow(
        /Permissions Violation/,
      );
      nc.publish(names.subjects.orderDone, JSON.stringify(done));
      await nc.flush();

      expect(await storedIds('vsphere', names.subjects.orderDone)).not.toContain(done.id);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(unwrap(await ask<BackboneOrderView>(ORDER_PATTERNS.getOrder, { uuid: order.uuid })).state).toBe(
        'executing',
      );
    });
  });

  it('no app wrote its nkey seed to its log', () => {
    const seeds = NATS_APPS.map((app) => readFileSync(nats.seedFile(app), 'utf8').trim());
    const logs = JSON.stringify(Object.values(apps).map((app) => app.lines));
    for (const seed of seeds) expect(logs).not.toContain(seed);
  });
});
