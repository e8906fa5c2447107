import { UnitOfWork } from '../src/repositories/unit-of-work';
import { OutboxRelay, type Publish } from '../src/outbox/outbox-relay';
import { publishEvent } from '../src/jetstream/publish-event';
import { captureLogger } from '../../../test/support/capture-logger';
import { erred, openMessagingFixture, OrderErredEvent, type MessagingFixture } from './messaging-fixture';

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('outbox relay (Postgres + JetStream)', () => {
  let fx: MessagingFixture;
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    fx = await openMessagingFixture('relay');
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });
  afterAll(async () => {
    await fx.close();
  });

  function relay(sweepMs = 60_000, publish?: Publish): OutboxRelay {
    const created = new OutboxRelay({
      unitOfWork: new UnitOfWork(fx.dataSource),
      outbox: fx.outbox,
      js: fx.js,
      logger: captureLogger('test').logger,
      sweepMs,
      publish,
    });
    relays.push(created);
    return created;
  }

  async function streamMessages(): Promise<number> {
    return (await fx.nats.jsm.streams.info(fx.nats.topology.streams.vsphere.name)).state.messages;
  }

  it('publishes a committed event after wake() and marks it sent, and never a rolled-back one', async () => {
    const subject = fx.nats.topology.subjects.orderErred;
    const before = await streamMessages();
    const committed = await fx.dataSource.transaction((manager) =>
      fx.outbox.append(manager, subject, OrderErredEvent, erred(), 'order-1'),
    );
    await fx.dataSource
      .transaction(async (manager) => {
        await fx.outbox.append(manager, subject, OrderErredEvent, erred(), 'order-2');
        throw new Error('the state change failed');
      })
      .catch(() => undefined);

    const started = relay();
    started.wake();
    await waitFor(async () => (await fx.outbox.countPending()) === 0);

    expect(await streamMessages()).toBe(before + 1);
    const stored = await fx.nats.jsm.streams.getMessage(fx.nats.topology.streams.vsphere.name, {
      last_by_subj: subject,
    });
    expect(stored?.header?.get('Nats-Msg-Id')).toBe(committed.id);
    expect(stored?.json<{ id: string; correlationId: string }>()).toMatchObject({
      id: committed.id,
      correlationId: 'order-1',
    });
  });

  /**
   * Every publish on `subject`, counted by event id as it crosses the wire. The stream cannot do
   * this: its duplicate window stores a second publish of the same `Nats-Msg-Id` once, so a stream
   * count hides a double publish. A core subscription receives every publish, duplicates included.
   */
  async function countPublishes(
    subject: string,
  ): Promise<{ byId: Map<string, number>; stop(): Promise<void> }> {
    const byId = new Map<string, number>();
    const subscription = fx.nats.nc.subscribe(subject, {
      callback: (error, message) => {
        if (error) return;
        const id = message.headers?.get('Nats-Msg-Id') ?? '(no Nats-Msg-Id)';
        byId.set(id, (byId.get(id) ?? 0) + 1);
      },
    });
    await fx.nats.nc.flush();
    return {
      byId,
      // The flush's round trip follows every publish the server received before it.
      stop: async () => {
        await fx.nats.nc.flush();
        subscription.unsubscribe();
      },
    };
  }

  it('publishes what a crash left unsent when it starts, each event once', async () => {
    const subject = `${fx.nats.topology.namespace}.vsphere.order.erred.left`;
    const publishes = await countPublishes(subject);
    const left = await fx.dataSource.transaction(async (manager) => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await fx.outbox.append(manager, subject, OrderErredEvent, erred(), `left-${i}`)).id);
      return ids;
    });
    relay(100).start();
    await waitFor(async () => (await fx.outbox.countPending()) === 0);
    await publishes.stop();
    expect(Object.fromEntries(publishes.byId)).toEqual(Object.fromEntries(left.map((id) => [id, 1])));
  });

  it('two relays draining one outbox publish every event exactly once (publishes counted, not stored messages)', async () => {
    const subject = `${fx.nats.topology.namespace}.vsphere.order.erred.pair`;
    const publishes = await countPublishes(subject);
    const appended = await fx.dataSource.transaction(async (manager) => {
      const ids: string[] = [];
      for (let i = 0; i < 300; i++)
        ids.push((await fx.outbox.append(manager, subject, OrderErredEvent, erred(), `pair-${i}`)).id);
      return ids;
    });
    // A publish whose ack did not come in time is sent again, by design (the stream drops the copy);
    // on a loaded machine some of 100 parallel acks take longer. Those are the only second publishes
    // allowed: the two relays must never both publish one event.
    const unacknowledged = new Set<string>();
    const publish: Publish = (js, subj, envelope) =>
      publishEvent(js, subj, envelope).catch((error: unknown) => {
        unacknowledged.add(envelope.id);
        throw error;
      });
    const first = relay(60_000, publish);
    const second = relay(60_000, publish);
    first.wake();
    second.wake();
    await waitFor(async () => (await fx.outbox.countPending()) === 0, 30_000);
    await Promise.all([first.stop(), second.stop()]);
    await publishes.stop();

    const publishedTwice = [...publishes.byId].filter(([, count]) => count > 1).map(([id]) => id);
    expect(publishedTwice.filter((id) => !unacknowledged.has(id))).toEqual([]);
    expect([...publishes.byId.keys()].sort()).toEqual([...appended].sort());
  });

  it('counts a second publish of one event that the stream drops as a duplicate (the count can fail)', async () => {
    const subject = `${fx.nats.topology.namespace}.vsphere.order.erred.twice`;
    const publishes = await countPublishes(subject);
    const before = await streamMessages();
    const envelope = await fx.dataSource.transaction((manager) =>
      fx.outbox.append(manager, subject, OrderErredEvent, erred(), 'twice'),
    );
    const firstAck = await publishEvent(fx.js, subject, envelope);
    const secondAck = await publishEvent(fx.js, subject, envelope);
    await publishes.stop();

    expect(firstAck.duplicate).toBe(false);
    expect(secondAck.duplicate).toBe(true);
    expect(await streamMessages()).toBe(before + 1); // what the old assertion saw
    expect(publishes.byId.get(envelope.id)).toBe(2); // what the count sees
  });
});
