import { randomUUID } from 'node:crypto';
import { OrderErredEvent, type Envelope, type OrderErred } from '@app/contracts';
import { ConsumerRunner, route } from '../src/jetstream/consumer-runner';
import { ensureDurableConsumer } from '../src/jetstream/ensure-topology';
import { buildEnvelope } from '../src/jetstream/build-envelope';
import { publishEvent } from '../src/jetstream/publish-event';
import { DONE, type HandlerOutcome } from '../src/jetstream/handler-outcome';
import { InboxRepository } from '../src/inbox/repositories/inbox.repository';
import { PermanentFailure, type ConsumerPolicy } from '../src/jetstream/consumer-policy';
import { captureLogger } from '../../../test/support/capture-logger';
import { erred, openMessagingFixture, type MessagingFixture } from './messaging-fixture';

const POLICY: ConsumerPolicy = {
  ackWaitMs: 1_000,
  backoffMs: [100],
  concurrency: 4,
  handlerTimeoutMs: 10_000,
};

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('consumer runner (JetStream durable pull consumer)', () => {
  let fx: MessagingFixture;
  let runner: ConsumerRunner | undefined;

  beforeAll(async () => {
    fx = await openMessagingFixture('consumer');
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });
  afterAll(async () => {
    await fx.close();
  });

  /** A fresh durable on its own subject per test, so tests never see each other's messages. */
  async function startRunner(
    handler: (envelope: Envelope<OrderErred>, signal: AbortSignal) => Promise<HandlerOutcome>,
    policy: ConsumerPolicy = POLICY,
  ) {
    const durable = `test-${randomUUID().slice(0, 8)}`;
    const subject = `${fx.nats.topology.namespace}.vsphere.order.${durable}`;
    const spec = { stream: fx.nats.topology.streams.vsphere.name, durable, filter: subject };
    await ensureDurableConsumer(fx.nats.jsm, spec, policy);
    const captured = captureLogger('consumer-test');
    runner = new ConsumerRunner({
      js: fx.js,
      connection: fx.nats.nc,
      durable: spec,
      policy,
      logger: captured.logger,
      routes: [route(OrderErredEvent, (envelope, delivery) => handler(envelope, delivery.signal))],
    });
    await runner.start();
    const info = () => fx.nats.jsm.consumers.info(spec.stream, durable);
    return { subject, logs: captured.lines, info };
  }

  it('delivers the same event published twice with the same id once', async () => {
    const seen: string[] = [];
    const { subject, info } = await startRunner((envelope) => {
      seen.push(envelope.id);
      return Promise.resolve(DONE);
    });
    const envelope = buildEnvelope(OrderErredEvent, erred(), 'order-dup');
    const first = await publishEvent(fx.js, subject, envelope);
    const second = await publishEvent(fx.js, subject, envelope);

    expect(second.duplicate).toBe(true);
    expect(second.seq).toBe(first.seq);
    await waitFor(async () => (await info()).num_ack_pending === 0 && seen.length === 1);
    await sleep(300);
    expect(seen).toEqual([envelope.id]);
  });

  it('terminates malformed messages with a logged reason, never redelivers them, and keeps consuming', async () => {
    const seen: string[] = [];
    const { subject, logs, info } = await startRunner((envelope) => {
      seen.push(envelope.id);
      return Promise.resolve(DONE);
    });
    await fx.js.publish(subject, 'this is not JSON');
    await fx.js.publish(
      subject,
      JSON.stringify({ ...buildEnvelope(OrderErredEvent, erred(), 'o'), data: { orderUuid: 'nope' } }),
    );
    await fx.js.publish(
      subject,
      JSON.stringify({ ...buildEnvelope(OrderErredEvent, erred(), 'o'), type: 'Unknown' }),
    );
    const valid = buildEnvelope(OrderErredEvent, erred(), 'order-valid');
    await publishEvent(fx.js, subject, valid);

    await waitFor(() => seen.length === 1);
    // Past the ack wait: a malformed message that was merely left unacked would come back by now.
    await sleep(POLICY.ackWaitMs * 1.5);
    const state = await info();
    expect(seen).toEqual([valid.id]);
    expect(state.num_ack_pending).toBe(0);
    expect(state.num_redelivered).toBe(0);
    expect(state.num_pending).toBe(0);
    const reasons = logs
      .filter((line) => line.msg === 'terminated a malformed message')
      .map((line) => line.reason);
    expect(reasons).toEqual([
      'body is not JSON',
      expect.stringMatching(/^OrderErred data invalid: orderUuid: /),
      'type is "Unknown", expected "OrderErred"',
    ]);
  });

  it('retries a failed handler after a delay and, with the inbox, applies the effect once across redeliveries', async () => {
    const inbox = new InboxRepository(fx.dataSource, 'vsphere');
    let attempts = 0;
    let effects = 0;
    const { subject, info } = await startRunner(async (envelope) => {
      attempts += 1;
      if (attempts === 1) throw new Error('database briefly away');
      await inbox.runOnce(envelope, () => {
        effects += 1;
        return Promise.resolve();
      });
      return DONE;
    });
    const envelope = buildEnvelope(OrderErredEvent, erred(), 'order-retry');
    await publishEvent(fx.js, subject, envelope);
    await waitFor(() => attempts === 2);
    // The same event again under another message id (a replay from another publisher): no second effect.
    await fx.js.publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
    await waitFor(async () => attempts === 3 && (await info()).num_ack_pending === 0);
    expect(effects).toBe(1);
    const rows: unknown[] = await fx.dataSource.query(
      'SELECT 1 FROM "vsphere"."inbox" WHERE "event_id" = $1',
      [envelope.id],
    );
    expect(rows).toHaveLength(1);
  });

  it('retries an infrastructure failure past any delivery count, until it succeeds', async () => {
    let attempts = 0;
    const { subject, info } = await startRunner(
      () => {
        attempts += 1;
        if (attempts <= 25) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
        return Promise.resolve(DONE);
      },
      { ...POLICY, backoffMs: [10] },
    );
    await publishEvent(fx.js, subject, buildEnvelope(OrderErredEvent, erred(), 'order-outage'));
    await waitFor(async () => attempts === 26 && (await info()).num_ack_pending === 0);
    const state = await info();
    expect(state.num_pending).toBe(0);
    expect(state.num_redelivered).toBe(0); // acked in the end: nothing left to redeliver
    expect(state.delivered.consumer_seq).toBe(26);
  });

  it("terminates a handler's explicit permanent refusal at once and never redelivers it", async () => {
    let attempts = 0;
    const { subject, info } = await startRunner(() => {
      attempts += 1;
      return Promise.reject(new PermanentFailure('this order can never be provisioned'));
    });
    await publishEvent(fx.js, subject, buildEnvelope(OrderErredEvent, erred(), 'order-refused'));
    await waitFor(async () => attempts === 1 && (await info()).num_ack_pending === 0);
    await sleep(POLICY.ackWaitMs * 1.5);
    expect(attempts).toBe(1);
    expect((await info()).num_redelivered).toBe(0);
  });

  it('holds no more messages than it has slots for: one queued behind a full window is never redelivered', async () => {
    const handled: string[] = [];
    // Each handler outlives the ack wait (its heartbeats keep it), so a message pulled early and
    // left waiting in the client would run out its ack wait and be delivered a second time.
    const { subject, info } = await startRunner(async (envelope) => {
      await sleep(POLICY.ackWaitMs * 1.3);
      handled.push(envelope.correlationId);
      return DONE;
    }, POLICY);
    const orders = Array.from({ length: POLICY.concurrency * 3 }, (_, index) => `queued-${index + 10}`);
    for (const order of orders)
      await publishEvent(fx.js, subject, buildEnvelope(OrderErredEvent, erred(), order));
    await waitFor(async () => {
      const state = await info();
      return state.num_pending === 0 && state.num_ack_pending === 0;
    }, 20_000);
    expect(handled.sort()).toEqual(orders);
    // Every delivery takes a consumer sequence number, a redelivery too.
    expect((await info()).delivered.consumer_seq).toBe(orders.length);
  });

  it('abandons a handler past its deadline, frees its slot and redelivers its message', async () => {
    const calls: string[] = [];
    let aborted = 0;
    const { subject, info } = await startRunner(
      (envelope, signal) => {
        calls.push(envelope.correlationId);
        if (envelope.correlationId === 'order-hangs' && calls.length === 1) {
          // Hangs until the runner gives up on it, as a vCenter call that never answers would.
          return new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted += 1;
              reject(new Error('aborted'));
            }),
          );
        }
        return Promise.resolve(DONE);
      },
      { ...POLICY, concurrency: 1, handlerTimeoutMs: 300 },
    );
    await publishEvent(fx.js, subject, buildEnvelope(OrderErredEvent, erred(), 'order-hangs'));
    await publishEvent(fx.js, subject, buildEnvelope(OrderErredEvent, erred(), 'order-next'));
    await waitFor(async () => calls.length === 3 && (await info()).num_ack_pending === 0);
    expect(aborted).toBe(1);
    // With one slot, the second order ran only because the hung handler's slot was freed.
    expect(calls.sort()).toEqual(['order-hangs', 'order-hangs', 'order-next']);
  });
});
