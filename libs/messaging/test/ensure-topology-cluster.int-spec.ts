import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { NatsCluster } from '../../../test/support/nats-cluster';
import { ensureDurableConsumer, ensureStream } from '../src/jetstream/ensure-topology';
import { untilJetStreamAnswers } from '../src/jetstream/until-jetstream-answers';

jest.setTimeout(90_000);

/**
 * Streams and durables are ensured at every start, by every instance. On a cluster the JetStream API
 * may not answer for a while (leaders being elected after a node loss, a quorum missing, replicas
 * being placed on a busy machine): a start then asks again until it does. A stream add refused as
 * unavailable must not be taken for a lost creation race (and followed by an update of a stream that
 * does not exist, which fails for good).
 */
describe('ensuring streams and durables on a NATS cluster that is not answering yet', () => {
  const cluster = new NatsCluster();
  let nc: NatsConnection;

  beforeAll(async () => {
    await cluster.start();
    nc = await connect({ servers: cluster.urls, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  });

  afterAll(async () => {
    await nc?.close();
    await cluster.destroy();
  });

  it('creates an R3 stream and its durable once two of the three nodes, lost, come back', async () => {
    const [, second, third] = cluster.nodes;
    const jsm = await jetstreamManager(nc);
    await Promise.all([second.stop('SIGKILL'), third.stop('SIGKILL')]);
    // As an app's start does: each step again until JetStream answers it.
    const ensured = (async () => {
      const quorum = { name: 'QUORUM', subjects: ['quorum.>'], maxAgeMs: 3_600_000, replicas: 3 };
      await untilJetStreamAnswers(
        () => ensureStream(jsm, quorum),
        () => undefined,
      );
      await untilJetStreamAnswers(
        () =>
          ensureDurableConsumer(
            jsm,
            { stream: 'QUORUM', durable: 'q-worker', filter: 'quorum.>' },
            { ackWaitMs: 5_000, backoffMs: [1_000], concurrency: 1, handlerTimeoutMs: 10_000 },
          ),
        () => undefined,
      );
    })();
    const outcome = ensured.then(
      () => 'ensured',
      (error: unknown) => `failed: ${String(error)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await Promise.all([second.start(), third.start()]);
    expect(await outcome).toBe('ensured');
    expect((await jsm.streams.info('QUORUM')).config.num_replicas).toBe(3);
    expect((await jsm.consumers.info('QUORUM', 'q-worker')).config.durable_name).toBe('q-worker');
  });
});
