import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { topology } from '@app/contracts';
import { AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { NatsCluster } from '../support/nats-cluster';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('apps started while their NATS cluster has lost its JetStream quorum', () => {
  const cluster = new NatsCluster();
  const names = topology('quorum');
  const apps: AppProcess[] = [];
  let db: TestDatabase;

  beforeAll(async () => {
    await cluster.start();
    db = await createTestDatabase('quorum');
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await cluster.destroy();
    await db?.drop();
  });

  it('wait for it instead of exiting, and come up with their three-copy streams once a second node is back', async () => {
    await Promise.all([cluster.node('n2').stop('SIGKILL'), cluster.node('n3').stop('SIGKILL')]);
    const env = {
      DATABASE_URL: db.url,
      NATS_URL: cluster.urls.join(','),
      NATS_NAMESPACE: names.namespace,
      NATS_STREAM_REPLICAS: '3',
    };
    const orderService = new AppProcess('order-service', env);
    const gateway = new AppProcess('gateway', { ...env, GATEWAY_PORT: String(await freePort()) });
    apps.push(orderService, gateway);
    const ready = new Set<string>();
    const starting = [
      orderService.start('order-service started', 90_000).then(() => ready.add('order-service')),
      gateway.start('gateway listening', 90_000).then(() => ready.add('gateway')),
    ];

    await sleep(6_000);
    expect({ ready: [...ready], orderService: orderService.exitStatus, gateway: gateway.exitStatus }).toEqual(
      {
        ready: [],
        orderService: undefined,
        gateway: undefined,
      },
    );

    await cluster.node('n2').start();
    await Promise.all(starting);
    const nc = await connect({ servers: cluster.urls.slice(0, 2) });
    try {
      const jsm = await jetstreamManager(nc);
      for (const stream of [names.streams.marketplace.name, names.feed.name])
        expect((await jsm.streams.info(stream)).config.num_replicas).toBe(3);
    } finally {
      await nc.close();
    }
  });
});
