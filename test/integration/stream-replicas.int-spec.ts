import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { topology } from '@app/contracts';
import {
  DEFAULT_CONSUMER_POLICY,
  ensureDurableConsumer,
  ensureStream,
  untilJetStreamAnswers,
} from '@app/messaging';
import { loadGatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { ensureFeedStream } from '../../apps/gateway/src/events/feed-stream';
import { loadOrderServiceConfig } from '../../apps/order-service/src/config/order-service.config';
import { orderServiceDefinition } from '../../apps/order-service/src/order-service.definition';
import { loadSyncSchedulerConfig } from '../../apps/sync-scheduler/src/config/sync-scheduler.config';
import { syncSchedulerDefinition } from '../../apps/sync-scheduler/src/sync-scheduler.definition';
import { loadVsphereAdapterConfig } from '../../apps/vsphere-adapter/src/config/vsphere-adapter.config';
import { vsphereAdapterDefinition } from '../../apps/vsphere-adapter/src/vsphere-adapter.definition';
import { NatsCluster } from '../support/nats-cluster';
import { eventually } from '../support/virtual-machines';

jest.setTimeout(300_000);

/**
 * The copies of a stream or a durable besides its leader's, once the cluster has placed them all.
 * While a durable's group is being re-formed (its stream just scaled), its info request may time out,
 * for most of a minute on a busy machine (a 15 s answer time: a few tries in all), so the wait is long.
 */
async function followers(read: () => Promise<{ cluster?: { replicas?: unknown[] } }>, count: number) {
  const deadline = Date.now() + 90_000;
  let seen = 0;
  while (Date.now() < deadline) {
    seen = (await read().catch(() => undefined))?.cluster?.replicas?.length ?? 0;
    if (seen === count) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

const streamFollowers = (jsm: JetStreamManager, stream: string, count: number) =>
  followers(() => jsm.streams.info(stream), count);
const durableFollowers = (jsm: JetStreamManager, stream: string, durable: string, count: number) =>
  followers(() => jsm.consumers.info(stream, durable), count);

/** What every app does at start with its streams and durables, from its own configuration. */
async function startTopology(jsm: JetStreamManager, env: Record<string, string>): Promise<void> {
  const names = topology(env.NATS_NAMESPACE);
  const order = loadOrderServiceConfig(env);
  const adapter = loadVsphereAdapterConfig(env);
  const scheduler = loadSyncSchedulerConfig(env);
  const owned = [
    ...orderServiceDefinition.ownedStreams(names, order),
    ...vsphereAdapterDefinition.ownedStreams(names, adapter),
    ...syncSchedulerDefinition.ownedStreams(names, scheduler),
  ];
  const consumed = [
    ...orderServiceDefinition.consumedStreams(names, order),
    ...vsphereAdapterDefinition.consumedStreams(names, adapter),
    ...syncSchedulerDefinition.consumedStreams(names, scheduler),
  ];
  // Each step asked again while JetStream answers "not now", as the apps' starts do.
  const step = <T>(work: () => Promise<T>) => untilJetStreamAnswers(work, () => undefined);
  for (const stream of consumed) await step(() => ensureStream(jsm, stream, 'createOnly'));
  for (const stream of owned) await step(() => ensureStream(jsm, stream, 'own'));
  for (const durable of Object.values(names.consumers))
    await step(() => ensureDurableConsumer(jsm, durable, DEFAULT_CONSUMER_POLICY));
  const gateway = loadGatewayConfig(env);
  await step(() => ensureFeedStream(jsm, names.feed, 3_600_000, gateway.NATS_STREAM_REPLICAS));
}

describe('NATS_STREAM_REPLICAS on a three-node cluster', () => {
  const cluster = new NatsCluster();
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    await cluster.start();
    nc = await connect({ servers: cluster.urls });
    // A longer answer time than the default 5 s: the cluster places replicas on a busy machine.
    jsm = await jetstreamManager(nc, { timeout: 15_000 });
  });

  afterAll(async () => {
    await nc?.close();
    await cluster.destroy();
  });

  it('at 3, every app creates its streams, its durables and the feed stream with three copies', async () => {
    await startTopology(jsm, { NATS_NAMESPACE: 'rthree', NATS_STREAM_REPLICAS: '3' });
    const names = topology('rthree');
    for (const stream of [...Object.values(names.streams), names.feed]) {
      expect((await jsm.streams.info(stream.name)).config.num_replicas).toBe(3);
      expect(await streamFollowers(jsm, stream.name, 2)).toBe(2);
    }
    for (const durable of Object.values(names.consumers))
      expect(await durableFollowers(jsm, durable.stream, durable.durable, 2)).toBe(2);
  });

  it('at 3 after 1, the existing streams and durables gain two copies and keep their messages and positions', async () => {
    const names = topology('rup');
    await startTopology(jsm, { NATS_NAMESPACE: 'rup', NATS_STREAM_REPLICAS: '1' });
    const js = jetstream(nc);
    for (const n of [1, 2, 3]) await js.publish(names.subjects.orderDone, `done ${n}`);
    await js.publish(names.subjects.orderStateChanged, 'feed');
    await eventually(
      () => jsm.streams.info(names.feed.name),
      (info) => info.state.messages === 1,
      10_000,
      "the feed stream's copy of the event",
    );
    const outcomes = names.consumers.orderServiceOutcomes;
    const first = await (await js.consumers.get(outcomes.stream, outcomes.durable)).next({ expires: 5_000 });
    await first!.ackAck();
    expect(await streamFollowers(jsm, outcomes.stream, 0)).toBe(0);
    // A consuming app alone with the new setting does not change another service's stream.
    await ensureStream(
      jsm,
      { ...names.streams.vsphere, maxAgeMs: 7 * 24 * 3_600_000, replicas: 3 },
      'createOnly',
    );
    expect((await jsm.streams.info(outcomes.stream)).config.num_replicas).toBe(1);

    await startTopology(jsm, { NATS_NAMESPACE: 'rup', NATS_STREAM_REPLICAS: '3' });

    for (const stream of [...Object.values(names.streams), names.feed])
      expect(await streamFollowers(jsm, stream.name, 2)).toBe(2);
    for (const durable of Object.values(names.consumers))
      expect({
        durable: durable.durable,
        followers: await durableFollowers(jsm, durable.stream, durable.durable, 2),
      }).toEqual({ durable: durable.durable, followers: 2 });
    expect((await jsm.streams.info(outcomes.stream)).state.messages).toBe(3);
    const durable = await jsm.consumers.info(outcomes.stream, outcomes.durable);
    expect(durable.config.ack_policy).toBe(AckPolicy.Explicit);
    expect(durable.ack_floor.stream_seq).toBe(1);
    expect(durable.num_pending).toBe(2);
    // The feed stream's own copy of the event survives its move to three copies.
    expect((await jsm.streams.info(names.feed.name)).state.messages).toBe(1);
  });

  it('a durable made with an explicit count of its own follows its stream once the app has started', async () => {
    const names = topology('rfix');
    const durable = names.consumers.orderServiceOutcomes;
    const stream = { ...names.streams.vsphere, maxAgeMs: 3_600_000 };
    await ensureStream(jsm, { ...stream, replicas: 1 });
    await jsm.consumers.add(durable.stream, {
      durable_name: durable.durable,
      filter_subject: durable.filter,
      ack_policy: AckPolicy.Explicit,
      num_replicas: 1,
    });
    await ensureDurableConsumer(jsm, durable, DEFAULT_CONSUMER_POLICY);
    expect((await jsm.consumers.info(durable.stream, durable.durable)).config.num_replicas ?? 0).toBe(0);
    await ensureStream(jsm, { ...stream, replicas: 3 });
    expect(await durableFollowers(jsm, durable.stream, durable.durable, 2)).toBe(2);
  });

  it('a durable whose settings change in the start that raises its stream to 3 follows the stream', async () => {
    const names = topology('rboth');
    const durable = names.consumers.orderServiceOutcomes;
    const stream = { ...names.streams.vsphere, maxAgeMs: 3_600_000 };
    await ensureStream(jsm, { ...stream, replicas: 1 });
    await ensureDurableConsumer(jsm, durable, DEFAULT_CONSUMER_POLICY);
    // One start with the new count and a new ack wait: the stream first, then at once its durable.
    await ensureStream(jsm, { ...stream, replicas: 3 });
    await ensureDurableConsumer(jsm, durable, { ...DEFAULT_CONSUMER_POLICY, ackWaitMs: 45_000 });
    expect(await durableFollowers(jsm, durable.stream, durable.durable, 2)).toBe(2);
    const info = await jsm.consumers.info(durable.stream, durable.durable);
    expect(info.config.ack_wait).toBe(45_000 * 1_000_000);
  });

  it('the gateway brings the feed stream to the setting and leaves it unchanged once there', async () => {
    const feed = topology('rfeed').feed;
    expect(await ensureFeedStream(jsm, feed, 3_600_000, 1)).toBe('created');
    expect(await ensureFeedStream(jsm, feed, 3_600_000, 1)).toBe('unchanged');
    expect(await ensureFeedStream(jsm, feed, 3_600_000, 3)).toBe('updated');
    expect(await streamFollowers(jsm, feed.name, 2)).toBe(2);
    expect(await ensureFeedStream(jsm, feed, 3_600_000, 3)).toBe('unchanged');
  });
});
