import { randomUUID } from 'node:crypto';
import { OrderErredEvent, type Envelope, type OrderErred } from '@app/contracts';
import { ConsumerRunner, route } from '../src/jetstream/consumer-runner';
import { ensureDurableConsumer } from '../src/jetstream/ensure-topology';
import { buildEnvelope } from '../src/jetstream/build-envelope';
import { publishEvent } from '../src/jetstream/publish-event';
import { DONE, type HandlerOutcome } from '../src/jetstream/handler-outcome';
import { InboxRepository } from '../src/repositories/inbox.repository';
import type { ConsumerPolicy } from '../src/jetstream/consumer-policy';
import { captureLogger } from '../../../test/support/capture-logger';
import { erred, openMessagingFixture, type MessagingFixture } from './messaging-fixture';

const POLICY: ConsumerPolicy = { ackWaitMs: 1_000, maxDeliver: 5, backoffMs: [100], concurrency: 4 };

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
  async function startRunner(handler: (envelope: Envelope<OrderErred>) => Promise<HandlerOutcome>) {
    const durable = `test-${randomUUID().slice(0, 8)}`;
    const subject = `${fx.nats.topology.namespace}.vsphere.order.${durable}`;
    const spec = { stream: fx.nats.topology.streams.vsphere.name, durable, filter: subject };
    await ensureDurableConsumer(fx.nats.jsm, spec, POLICY);
    const captured = captureLogger('consumer-test');
    runner = new ConsumerRunner({
      js: fx.js,
      durable: spec,
      policy: POLICY,
      logger: captured.logger,
      routes: [route(OrderErredEvent, handler)],
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
});
