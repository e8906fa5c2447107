import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { OrderErredEvent } from '@app/contracts';
import { NatsCluster } from '../../../test/support/nats-cluster';
import { captureLogger } from '../../../test/support/capture-logger';
import { buildEnvelope } from '../src/jetstream/build-envelope';
import { ConsumerRunner, route } from '../src/jetstream/consumer-runner';
import type { ConsumerPolicy } from '../src/jetstream/consumer-policy';
import { ensureDurableConsumer } from '../src/jetstream/ensure-topology';
import { DONE } from '../src/jetstream/handler-outcome';
import { erred } from './messaging-fixture';

jest.setTimeout(90_000);

const POLICY: ConsumerPolicy = {
  ackWaitMs: 5_000,
  backoffMs: [100],
  concurrency: 4,
  handlerTimeoutMs: 10_000,
};
const STREAM = 'NODELOSS_EVENTS';
const SUBJECT = 'nodeloss.events.order';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Publishes until the stream takes it: after a node loss the stream may be electing a leader. */
async function publish(js: JetStreamClient, deadline: number): Promise<void> {
  const envelope = buildEnvelope(OrderErredEvent, erred(), 'node-loss');
  for (;;) {
    const stored = await js
      .publish(SUBJECT, JSON.stringify(envelope), { msgID: envelope.id, timeout: 1_000 })
      .then(
        () => true,
        () => false,
      );
    if (stored) return;
    if (Date.now() > deadline) throw new Error(`${SUBJECT}: not stored`);
    await sleep(100);
  }
}

/**
 * A service's durable consumer on a three-node cluster with R3 streams: its pull requests wait on
 * the consumer's leader, and when that node dies they are never answered. The runner must pull
 * again from the new leader soon after, not when the lost pull would have expired.
 */
describe('the consumer runner on a NATS cluster', () => {
  const cluster = new NatsCluster();
  let nc: NatsConnection;
  let runner: ConsumerRunner | undefined;

  beforeAll(async () => {
    await cluster.start();
    nc = await connect({ servers: cluster.urls, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: STREAM, subjects: ['nodeloss.events.>'], num_replicas: 3 });
  });

  afterAll(async () => {
    await runner?.stop(100);
    await nc?.close();
    await cluster.destroy();
  });

  it('handles an event published after the node leading its durable is SIGKILLed within 15 s', async () => {
    const jsm = await jetstreamManager(nc);
    const spec = { stream: STREAM, durable: 'nodeloss', filter: SUBJECT };
    await ensureDurableConsumer(jsm, spec, POLICY);
    const handled: string[] = [];
    runner = new ConsumerRunner({
      js: jetstream(nc),
      connection: nc,
      durable: spec,
      policy: POLICY,
      logger: captureLogger('node-loss').logger,
      routes: [route(OrderErredEvent, (envelope) => (handled.push(envelope.id), Promise.resolve(DONE)))],
    });
    await runner.start();
    const js = jetstream(nc);
    await publish(js, Date.now() + 10_000);
    const until = async (count: number, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (handled.length < count && Date.now() < deadline) await sleep(50);
    };
    await until(1, 10_000);
    expect(handled).toHaveLength(1);

    const leader = (await jsm.consumers.info(STREAM, spec.durable)).cluster!.leader!;
    await cluster.node(leader).stop('SIGKILL');
    const killedAt = Date.now();
    await publish(js, killedAt + 15_000);
    await until(2, killedAt + 15_000 - Date.now());
    expect(handled).toHaveLength(2);
  });
});
