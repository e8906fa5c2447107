import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { topology } from '@app/contracts';
import { NatsCluster } from '../../../test/support/nats-cluster';
import { loadGatewayConfig } from '../src/config/gateway.config';
import { FeedReader } from '../src/events/feed-reader';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Publishes until the stream takes it: after a node loss the stream may be electing a leader. */
async function publish(js: JetStreamClient, subject: string, deadline: number): Promise<void> {
  for (;;) {
    const stored = await js.publish(subject, '{}', { timeout: 1_000 }).then(
      () => true,
      () => false,
    );
    if (stored) return;
    if (Date.now() > deadline) throw new Error(`${subject}: not stored`);
  }
}

async function handedOn(seen: number[], count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (seen.length < count && Date.now() < deadline) await sleep(50);
}

/**
 * The gateway's live feed reader on a three-node cluster with R3 streams: its ordered consumer lives
 * on one node, and losing that node must not stall the feed (the library alone retries the lost
 * consumer for as long as the node stays away).
 */
describe('the live feed reader on a NATS cluster', () => {
  const cluster = new NatsCluster();
  const names = topology('feedloss');
  let nc: NatsConnection;
  let reader: FeedReader;

  beforeAll(async () => {
    await cluster.start();
    nc = await connect({ servers: cluster.urls, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    const source = names.streams.marketplace;
    await (
      await jetstreamManager(nc)
    ).streams.add({ name: source.name, subjects: [`${names.namespace}.marketplace.>`], num_replicas: 3 });
  });

  afterAll(async () => {
    await reader?.onApplicationShutdown();
    await nc?.close();
    await cluster.destroy();
  });

  it('keeps handing on every feed event, once and in order, after the node holding its live consumer is SIGKILLed', async () => {
    reader = new FeedReader(
      loadGatewayConfig({
        NATS_URL: cluster.urls.join(','),
        NATS_NAMESPACE: names.namespace,
        NATS_STREAM_REPLICAS: '3',
      }),
    );
    const seen: number[] = [];
    reader.onEvent((event) => seen.push(event.seq));
    await reader.onModuleInit();
    const js = jetstream(nc);
    const subject = names.subjects.orderStateChanged;
    await publish(js, subject, Date.now() + 10_000);
    await handedOn(seen, 1, 15_000);
    expect(seen).toEqual([1]);

    const jsm = await jetstreamManager(nc);
    const consumers = await jsm.consumers.list(names.feed.name).next();
    expect(consumers).toHaveLength(1);
    const holder = cluster.node(consumers[0].cluster!.leader!);
    await holder.stop('SIGKILL');
    for (let i = 0; i < 3; i++) await publish(js, subject, Date.now() + 20_000);
    await handedOn(seen, 4, 20_000);
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
