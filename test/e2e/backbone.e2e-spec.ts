import { jetstream } from '@nats-io/jetstream';
import { Client } from 'pg';
import {
  OrderDoneEvent,
  ORDER_PATTERNS,
  VMWARE_OFFERING_TYPE,
  type OfferingSummary,
  type BackboneOrderView,
  type RequestReply,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import { AppProcess } from '../support/app-process';
import { BACKBONE_PROJECT, createBackboneProject } from '../support/backbone-project';
import { openRequestClient } from '../support/nats-requests';
import { readEnvelopes } from '../support/stream-reader';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';

jest.setTimeout(90_000);

const ACK_WAIT_MS = 2_000;

function unwrap<T>(reply: RequestReply<T>): T {
  if (reply.status !== 'ok') throw new Error(`request refused: ${JSON.stringify(reply)}`);
  return reply.data;
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The backbone only: the adapter does no vCenter work yet and answers every order with OrderErred.
describe('messaging backbone: order service → JetStream → vSphere adapter → order service', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let orderService: AppProcess;
  let adapter: AppProcess;
  let client: Awaited<ReturnType<typeof openRequestClient>>;
  let offering: OfferingSummary;

  const env = () => ({
    DATABASE_URL: db.url,
    NATS_URL: testEnv.natsUrl,
    NATS_NAMESPACE: nats.topology.namespace,
    CONSUMER_ACK_WAIT_MS: String(ACK_WAIT_MS),
    OUTBOX_SWEEP_MS: '500',
  });

  beforeAll(async () => {
    db = await createTestDatabase('backbone');
    nats = await createTestNats('backbone');
    orderService = new AppProcess('order-service', env());
    adapter = new AppProcess('vsphere-adapter', env());
    await Promise.all([orderService.start(), adapter.start()]);
    await createBackboneProject(db.url);
    client = await openRequestClient(nats.topology.namespace);
    offering = unwrap(
      await client.request<RequestReply<OfferingSummary>>(ORDER_PATTERNS.createOffering, {
        name: 'vCenter A',
        type: VMWARE_OFFERING_TYPE,
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all([orderService?.stop(), adapter?.stop()]);
    await nats?.close();
    await db?.drop();
  });

  async function submitOrder(): Promise<BackboneOrderView> {
    return unwrap(
      await client.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.createOrder, {
        offering_uuid: offering.uuid,
        project_uuid: BACKBONE_PROJECT,
        attributes: { name: 'vm-1' },
        limits: { cpu: 2, ram: 2048 },
      }),
    );
  }

  async function settledOrder(uuid: string): Promise<BackboneOrderView> {
    return eventually(async () => {
      const order = unwrap(
        await client.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.getOrder, { uuid }),
      );
      return order.state === 'executing' ? undefined : order;
    });
  }

  async function answersFor(orderUuid: string) {
    const subjects = [nats.topology.subjects.orderDone, nats.topology.subjects.orderErred];
    const all = await Promise.all(
      subjects.map((subject) => readEnvelopes(nats.jsm, nats.topology.streams.vsphere.name, subject)),
    );
    return all.flat().filter((envelope) => envelope.correlationId === orderUuid);
  }

  async function inboxRowsFor(orderUuid: string): Promise<number> {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query(
        `SELECT count(*)::int AS n FROM vsphere.inbox WHERE event_id IN
           (SELECT id FROM marketplace.outbox WHERE correlation_id = $1 AND type = 'OrderSubmitted')`,
        [orderUuid],
      );
      return (rows[0] as { n: number }).n;
    } finally {
      await pg.end();
    }
  }

  it('refuses an order for a project that does not exist, storing nothing', async () => {
    const project = '0b7e6a52-3f4d-4f7e-9a0c-5d2c1e8f9b11';
    const reply = await client.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.createOrder, {
      offering_uuid: offering.uuid,
      project_uuid: project,
    });
    expect(reply).toEqual({
      status: 'error',
      code: 400,
      fields: { project_uuid: ['Project with this UUID does not exist.'] },
    });
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query(
        `SELECT (SELECT count(*)::int FROM marketplace.orders WHERE project_uuid = $1)
              + (SELECT count(*)::int FROM marketplace.resources WHERE project_uuid = $1) AS n`,
        [project],
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await pg.end();
    }
  });

  it('records the adapter’s answer on the order: executing → erred with the adapter’s message', async () => {
    const order = await submitOrder();
    expect(order.state).toBe('executing');

    const settled = await settledOrder(order.uuid);

    expect(settled.state).toBe('erred');
    expect(settled.error_message).toBe(
      `Offering ${offering.uuid} is not connected to a vCenter: the vSphere adapter has no credentials for it.`,
    );
    expect(settled.completed_at).not.toBeNull();
    expect(await answersFor(order.uuid)).toHaveLength(1);
    expect(await inboxRowsFor(order.uuid)).toBe(1);
  });

  it('an adapter SIGKILLed while it holds an unacknowledged OrderSubmitted answers once after restart', async () => {
    // Hold the adapter inside its handler: its inbox insert waits on this lock, so the message stays unacked.
    const blocker = new Client({ connectionString: db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE vsphere.inbox IN ACCESS EXCLUSIVE MODE');
    const durable = nats.topology.consumers.adapterOrderSubmitted;
    try {
      const order = await submitOrder();
      const held = await eventually(async () => {
        const info = await nats.jsm.consumers.info(durable.stream, durable.durable);
        return info.num_ack_pending === 1 ? info : undefined;
      });

      expect(await adapter.stop('SIGKILL')).toBeNull();
      await blocker.query('COMMIT');

      adapter = new AppProcess('vsphere-adapter', env());
      await adapter.start();
      const settled = await settledOrder(order.uuid);

      expect(settled.state).toBe('erred');
      const info = await nats.jsm.consumers.info(durable.stream, durable.durable);
      // Delivered again after the crash (consumer sequence counts every delivery), and acknowledged.
      expect(info.delivered.consumer_seq).toBeGreaterThan(held.delivered.consumer_seq);
      expect(info.num_ack_pending).toBe(0);
      expect(await answersFor(order.uuid)).toHaveLength(1);
      expect(await inboxRowsFor(order.uuid)).toBe(1);
    } finally {
      await blocker.end();
    }
  });

  it('OrderDone moves the order to done and records the VM id; a late second answer changes nothing', async () => {
    await adapter.stop(); // SIGTERM: the consumer stops first, then the runtime closes
    expect(adapter.lines.some((line) => line.msg === 'vsphere-adapter stopped')).toBe(true);
    const order = await submitOrder();
    const done = buildEnvelope(
      OrderDoneEvent,
      {
        orderUuid: order.uuid,
        resourceUuid: order.marketplace_resource_uuid,
        backendId: '421e4b8a-0c0f-4e39-9f1d-1d3b2c4a5f60',
      },
      order.uuid,
    );
    await publishEvent(jetstream(nats.nc), nats.topology.subjects.orderDone, done);

    const settled = await settledOrder(order.uuid);
    expect(settled).toMatchObject({
      state: 'done',
      resource_uuid: '421e4b8a-0c0f-4e39-9f1d-1d3b2c4a5f60',
      error_message: '',
    });

    // The adapter comes back and answers the same order with OrderErred: the order stays done.
    adapter = new AppProcess('vsphere-adapter', env());
    await adapter.start();
    await eventually(async () => ((await answersFor(order.uuid)).length === 2 ? true : undefined));
    await orderService.waitForLog(
      (line) => line.orderUuid === order.uuid && /ignored: order is done/.test(String(line.msg)),
    );
    const after = unwrap(
      await client.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.getOrder, { uuid: order.uuid }),
    );
    expect(after.state).toBe('done');
  });

  it('two adapter instances share the durable consumer: every order is answered once, by one of them', async () => {
    const second = new AppProcess('vsphere-adapter', env());
    await second.start();
    try {
      const orders = await Promise.all(Array.from({ length: 24 }, () => submitOrder()));
      const settled = await Promise.all(orders.map((order) => settledOrder(order.uuid)));
      expect(settled.every((order) => order.state === 'erred')).toBe(true);

      const answered = (instance: AppProcess) =>
        new Set(
          instance.lines
            .filter((line) => line.msg === 'OrderSubmitted answered with OrderErred')
            .map((line) => String(line.orderUuid)),
        );
      const byFirst = answered(adapter);
      const bySecond = answered(second);
      for (const order of orders) {
        expect(Number(byFirst.has(order.uuid)) + Number(bySecond.has(order.uuid))).toBe(1);
        expect(await answersFor(order.uuid)).toHaveLength(1);
      }
      expect(byFirst.size).toBeGreaterThan(0);
      expect(bySecond.size).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });
});
