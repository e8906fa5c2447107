import { JetStreamApiError, type JetStreamClient, type PubAck } from '@nats-io/jetstream';
import { TimeoutError } from '@nats-io/transport-node';
import type { Envelope } from '@app/contracts';
import { UnitOfWork } from '../src/repositories/unit-of-work';
import { OutboxRelay, type Publish } from '../src/outbox/outbox-relay';
import { publishEvent } from '../src/jetstream/publish-event';
import { captureLogger } from '../../../test/support/capture-logger';
import { erred, openMessagingFixture, OrderErredEvent, type MessagingFixture } from './messaging-fixture';

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every publish the relays made, and how many the stream reported as duplicates. */
class PublishLog {
  readonly attempts: string[] = [];
  duplicates = 0;

  constructor(private readonly fail: (envelope: Envelope, attempt: number) => Error | undefined) {}

  readonly publish: Publish = async (js: JetStreamClient, subject: string, envelope: Envelope) => {
    const attempt = this.attempts.filter((id) => id === envelope.id).length + 1;
    this.attempts.push(envelope.id);
    const failure = this.fail(envelope, attempt);
    if (failure) throw failure;
    const ack: PubAck = await publishEvent(js, subject, envelope);
    if (ack.duplicate) this.duplicates += 1;
    return ack;
  };
}

// Event order per aggregate, and parking: what the order flow and the SSE stream stand on.
describe('outbox relay: per-aggregate order and parking', () => {
  let fx: MessagingFixture;
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    fx = await openMessagingFixture('relayorder');
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });
  afterAll(async () => {
    await fx.close();
  });

  function relay(log: PublishLog, maxAttempts = 10): OutboxRelay {
    const created = new OutboxRelay({
      unitOfWork: new UnitOfWork(fx.dataSource),
      outbox: fx.outbox,
      js: fx.js,
      logger: captureLogger('test').logger,
      sweepMs: 200,
      maxAttempts,
      publish: log.publish,
    });
    relays.push(created);
    return created;
  }

  /** Appends events in one transaction each, as separate state changes would; returns their ids. */
  async function append(aggregates: string[], errorMessage = 'vCenter said no'): Promise<string[]> {
    const ids: string[] = [];
    for (const aggregate of aggregates) {
      const envelope = await fx.dataSource.transaction((manager) =>
        fx.outbox.append(
          manager,
          fx.nats.topology.subjects.orderErred,
          OrderErredEvent,
          erred({ errorMessage }),
          aggregate,
        ),
      );
      ids.push(envelope.id);
    }
    return ids;
  }

  /** The stream's envelopes in stream order (the suite's stream holds only this file's events). */
  async function stored(): Promise<Envelope[]> {
    const stream = fx.nats.topology.streams.vsphere.name;
    const { state } = await fx.nats.jsm.streams.info(stream);
    const envelopes: Envelope[] = [];
    for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
      const message = await fx.nats.jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (message) envelopes.push(message.json<Envelope>());
    }
    return envelopes;
  }

  async function pendingCount(): Promise<number> {
    return (await fx.outbox.backlog()).count;
  }

  it('parks an unpublishable event in the same pass, and the next event of its order still goes out', async () => {
    const log = new PublishLog(() => undefined);
    const [huge] = await append(['order-huge'], 'x'.repeat(1_200_000)); // over NATS's 1 MiB max_payload
    const [next] = await append(['order-huge']);
    const [other] = await append(['order-other']);

    const once = relay(log);
    once.wake();
    await once.stop(); // waits for the pass under way: exactly one pass has run

    const ids = (await stored()).map((envelope) => envelope.id);
    expect(ids).toEqual(expect.arrayContaining([next, other]));
    expect(ids).not.toContain(huge);
    const [row]: { parked_at: Date | null; last_error: string }[] = await fx.dataSource.query(
      'SELECT "parked_at", "last_error" FROM "vsphere"."outbox" WHERE "id" = $1',
      [huge],
    );
    expect(row.parked_at).not.toBeNull();
    expect(row.last_error).toMatch(/max_payload/);
    expect(await fx.outbox.backlog()).toMatchObject({ count: 0, parked: 1 });
  });

  it('two relays with a publish failure between two events of one order keep the order on the stream', async () => {
    const before = (await stored()).length;
    let failOn = '';
    const log = new PublishLog((envelope, attempt) =>
      envelope.id === failOn && attempt === 1 ? new Error('TIMEOUT') : undefined,
    );
    // Orders A and B interleaved, three events each; A's second event fails once.
    const ids = await append(['order-a', 'order-b', 'order-a', 'order-b', 'order-a', 'order-b']);
    failOn = ids[2];
    const [first, second] = [relay(log), relay(log)];
    first.wake();
    second.wake();
    await waitFor(async () => (await pendingCount()) === 0);

    const envelopes = (await stored()).slice(before);
    const streamOrder = (order: string) =>
      envelopes.filter((envelope) => envelope.correlationId === order).map((envelope) => envelope.id);
    expect(streamOrder('order-a')).toEqual([ids[0], ids[2], ids[4]]);
    expect(streamOrder('order-b')).toEqual([ids[1], ids[3], ids[5]]);
    expect(log.attempts.filter((id) => id === ids[2])).toHaveLength(2);
    // Exactly once, counted at the publisher: no publish was a duplicate the stream had to drop.
    expect(log.duplicates).toBe(0);
    expect(envelopes).toHaveLength(6);
  });

  it('parks an event the server keeps rejecting after the bounded attempts; its order then goes on', async () => {
    const before = (await stored()).length;
    let rejected = '';
    const log = new PublishLog((envelope) =>
      envelope.id === rejected
        ? new JetStreamApiError({
            code: 400,
            err_code: 10054,
            description: 'message size exceeds maximum allowed',
          })
        : undefined,
    );
    const ids = await append(['order-rejected', 'order-rejected']);
    rejected = ids[0];
    relay(log, 3).start();
    await waitFor(async () => (await pendingCount()) === 0);

    expect(log.attempts.filter((id) => id === rejected)).toHaveLength(3);
    expect((await stored()).slice(before).map((envelope) => envelope.id)).toEqual([ids[1]]);
    expect(await fx.outbox.backlog()).toMatchObject({ count: 0, parked: 2 });
  });

  it('never parks an event whose publishes go unanswered, however often; it goes out once JetStream answers', async () => {
    const before = (await stored()).length;
    let unanswered = '';
    // A cluster electing leaders, or without a quorum: the publish times out, more often than the bound.
    const log = new PublishLog((envelope, attempt) =>
      envelope.id === unanswered && attempt <= 5 ? new TimeoutError() : undefined,
    );
    const { parked } = await fx.outbox.backlog();
    const ids = await append(['order-unanswered', 'order-unanswered']);
    unanswered = ids[0];
    relay(log, 3).start();
    await waitFor(async () => (await pendingCount()) === 0);

    expect(log.attempts.filter((id) => id === unanswered)).toHaveLength(6);
    expect((await stored()).slice(before).map((envelope) => envelope.id)).toEqual(ids);
    expect(await fx.outbox.backlog()).toMatchObject({ count: 0, parked });
  });

  it("keeps every order's events in commit order under random failures with two relays, each published once", async () => {
    const before = (await stored()).length;
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const log = new PublishLog(() => (random() < 0.15 ? new Error('connection reset') : undefined));
    const aggregates = Array.from({ length: 120 }, (_, i) => `order-r${i % 12}`);
    const ids = await append(aggregates);
    const [first, second] = [relay(log), relay(log)];
    first.start();
    second.start();
    await waitFor(async () => (await pendingCount()) === 0, 30_000);

    const envelopes = (await stored()).slice(before);
    expect(envelopes).toHaveLength(120);
    expect(log.duplicates).toBe(0);
    for (let i = 0; i < 12; i++) {
      const order = `order-r${i}`;
      const committed = ids.filter((_, index) => aggregates[index] === order);
      expect(envelopes.filter((envelope) => envelope.correlationId === order).map((e) => e.id)).toEqual(
        committed,
      );
    }
  });
});
