import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { NatsCluster } from '../support/nats-cluster';

jest.setTimeout(60_000);

describe('the three-node NATS cluster profile (deploy/nats/cluster-node.conf)', () => {
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

  it('forms one cluster whose R3 stream keeps accepting messages after a node is SIGKILLed', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'PROFILE', subjects: ['profile.>'], num_replicas: 3 });
    const js = jetstream(nc);
    await js.publish('profile.a', 'before');
    const info = await jsm.streams.info('PROFILE');
    expect(info.cluster?.replicas ?? []).toHaveLength(2);

    const victim = cluster.nodes.find((node) => node.name === info.cluster?.leader) ?? cluster.nodes[0];
    await victim.stop('SIGKILL');
    let published = false;
    const deadline = Date.now() + 20_000;
    while (!published && Date.now() < deadline) {
      published = await js.publish('profile.b', 'after', { timeout: 1_000 }).then(
        () => true,
        () => false,
      );
    }
    expect(published).toBe(true);
    await victim.start();
    expect((await jsm.streams.info('PROFILE')).state.messages).toBe(2);
  });
});
