import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { topology, type DurableNames, type NatsApp } from '@app/contracts';
import {
  DEFAULT_CONSUMER_POLICY,
  ensureDurableConsumer,
  ensureStream,
  natsConnectionOptions,
  type StreamSpec,
} from '@app/messaging';
import { loadGatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { ensureFeedStream } from '../../apps/gateway/src/events/feed-stream';
import { loadOrderServiceConfig } from '../../apps/order-service/src/config/order-service.config';
import { orderServiceDefinition } from '../../apps/order-service/src/order-service.definition';
import { loadSyncSchedulerConfig } from '../../apps/sync-scheduler/src/config/sync-scheduler.config';
import { syncSchedulerDefinition } from '../../apps/sync-scheduler/src/sync-scheduler.definition';
import { loadVsphereAdapterConfig } from '../../apps/vsphere-adapter/src/config/vsphere-adapter.config';
import { vsphereAdapterDefinition } from '../../apps/vsphere-adapter/src/vsphere-adapter.definition';
import { appConfigSchema, loadConfig } from '@app/platform';
import { NatsCluster } from '../support/nats-cluster';

jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const SERVER_CONFIG = join(ROOT, 'deploy', 'nats', 'cluster-server.conf');
const names = topology('vmm');
const natsConfig = (env: Record<string, string>) => loadConfig(appConfigSchema({}), env);

/** Copies besides the leader's, once the cluster has placed them (0 after 10 s without). */
async function followers(read: () => Promise<{ cluster?: { replicas?: unknown[] } }>): Promise<number> {
  const deadline = Date.now() + 10_000;
  let seen = 0;
  while (Date.now() < deadline) {
    seen = (await read()).cluster?.replicas?.length ?? 0;
    if (seen === 2) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

/**
 * The cluster of docker-compose.cluster.yml, on this machine: every node runs
 * deploy/nats/cluster-server.conf with the apps' public keys in its environment (made by
 * deploy/nats/nats-keys.js, as the compose file's nats-keys step does), and each app connects with
 * its own seed and NATS_STREAM_REPLICAS=3.
 */
describe('deploy/nats/cluster-server.conf on three nodes', () => {
  let folder: string;
  let cluster: NatsCluster;
  const connections: NatsConnection[] = [];

  const appEnv = (app: NatsApp) => ({
    NATS_URL: cluster.urls.join(','),
    NATS_NAMESPACE: 'vmm',
    NATS_STREAM_REPLICAS: '3',
    NATS_NKEY_SEED_FILE: join(folder, `${app}.nk`),
  });

  async function connectAs(app: NatsApp): Promise<JetStreamManager> {
    const nc = await connect(natsConnectionOptions(natsConfig(appEnv(app)), app));
    connections.push(nc);
    return jetstreamManager(nc);
  }

  /** What a service does at start: its streams (own, then the ones it reads) and its durables. */
  async function startService(
    app: NatsApp,
    owned: StreamSpec[],
    consumed: StreamSpec[],
    durables: DurableNames[],
  ): Promise<JetStreamManager> {
    const jsm = await connectAs(app);
    for (const stream of owned) await ensureStream(jsm, stream, 'own');
    for (const stream of consumed) await ensureStream(jsm, stream, 'createOnly');
    for (const durable of durables) await ensureDurableConsumer(jsm, durable, DEFAULT_CONSUMER_POLICY);
    return jsm;
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'vmm-cluster-keys-'));
    await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [
        'deploy/nats/nats-keys.js',
        '--namespace',
        'vmm',
        '--authorization',
        'deploy/nats/authorization.conf',
        '--out',
        folder,
      ],
      { cwd: ROOT },
    );
    const publicKeys = Object.fromEntries(
      (await readFile(join(folder, 'nkeys.env'), 'utf8'))
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => line.split('=', 2) as [string, string]),
    );
    const seedFile = join(folder, 'order-service.nk');
    cluster = new NatsCluster({
      config: SERVER_CONFIG,
      env: publicKeys,
      connection: natsConnectionOptions(natsConfig({ NATS_NKEY_SEED_FILE: seedFile }), 'order-service'),
    });
    await cluster.start();
  });

  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    await cluster?.destroy();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('refuses a client without an nkey', async () => {
    await expect(connect({ servers: cluster.urls })).rejects.toThrow(/authorization/i);
  });

  it('lets each app, with its own nkey, create its streams and durables with three copies, and update them at a restart', async () => {
    const order = loadOrderServiceConfig(appEnv('order-service'));
    const adapter = loadVsphereAdapterConfig(appEnv('vsphere-adapter'));
    const scheduler = loadSyncSchedulerConfig(appEnv('sync-scheduler'));
    const gateway = loadGatewayConfig(appEnv('gateway'));
    const startAll = async () => {
      const orderJsm = await startService(
        'order-service',
        orderServiceDefinition.ownedStreams(names, order),
        orderServiceDefinition.consumedStreams(names, order),
        [names.consumers.orderServiceOutcomes, names.consumers.orderServiceVmChanges],
      );
      const adapterJsm = await startService(
        'vsphere-adapter',
        vsphereAdapterDefinition.ownedStreams(names, adapter),
        vsphereAdapterDefinition.consumedStreams(names, adapter),
        [names.consumers.adapterOrderSubmitted, names.consumers.adapterSyncRequested],
      );
      const schedulerJsm = await startService(
        'sync-scheduler',
        syncSchedulerDefinition.ownedStreams(names, scheduler),
        [],
        [],
      );
      const gatewayJsm = await connectAs('gateway');
      await ensureFeedStream(gatewayJsm, names.feed, 3_600_000, gateway.NATS_STREAM_REPLICAS);
      return { orderJsm, adapterJsm, schedulerJsm, gatewayJsm };
    };
    await startAll();
    // Again, as at a restart: the streams and durables exist, and their updates are within the grants too.
    const { orderJsm, adapterJsm, schedulerJsm, gatewayJsm } = await startAll();

    // Each app looks at what it owns: its grants let it read nothing else.
    const owners: [JetStreamManager, string][] = [
      [orderJsm, names.streams.marketplace.name],
      [adapterJsm, names.streams.vsphere.name],
      [schedulerJsm, names.streams.scheduler.name],
      [gatewayJsm, names.feed.name],
    ];
    for (const [jsm, stream] of owners)
      expect([stream, await followers(() => jsm.streams.info(stream))]).toEqual([stream, 2]);
    const durables: [JetStreamManager, DurableNames][] = [
      [orderJsm, names.consumers.orderServiceOutcomes],
      [orderJsm, names.consumers.orderServiceVmChanges],
      [adapterJsm, names.consumers.adapterOrderSubmitted],
      [adapterJsm, names.consumers.adapterSyncRequested],
    ];
    for (const [jsm, durable] of durables)
      expect([
        durable.durable,
        await followers(() => jsm.consumers.info(durable.stream, durable.durable)),
      ]).toEqual([durable.durable, 2]);
  });
});
