import { OutboxRelay } from '../src/outbox/outbox-relay';
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

  function relay(sweepMs = 60_000): OutboxRelay {
    const created = new OutboxRelay({
      dataSource: fx.dataSource,
      outbox: fx.outbox,
      js: fx.js,
      logger: captureLogger('test').logger,
      sweepMs,
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
    await waitFor(async () => (await fx.outbox.countPending(fx.dataSource)) === 0);

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

  it('publishes what a crash left unsent when it starts, each event once', async () => {
    const subject = fx.nats.topology.subjects.orderErred;
    const before = await streamMessages();
    await fx.dataSource.transaction(async (manager) => {
      for (let i = 0; i < 5; i++)
        await fx.outbox.append(manager, subject, OrderErredEvent, erred(), `left-${i}`);
    });
    relay(100).start();
    await waitFor(async () => (await fx.outbox.countPending(fx.dataSource)) === 0);
    expect(await streamMessages()).toBe(before + 5);
  });

  it('two relays draining one outbox publish every event exactly once', async () => {
    const subject = fx.nats.topology.subjects.orderErred;
    const before = await streamMessages();
    await fx.dataSource.transaction(async (manager) => {
      for (let i = 0; i < 300; i++)
        await fx.outbox.append(manager, subject, OrderErredEvent, erred(), `pair-${i}`);
    });
    const first = relay();
    const second = relay();
    first.wake();
    second.wake();
    await waitFor(async () => (await fx.outbox.countPending(fx.dataSource)) === 0);
    expect(await streamMessages()).toBe(before + 300);
  });
});
