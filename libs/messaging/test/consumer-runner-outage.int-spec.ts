import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { OrderErredEvent } from '@app/contracts';
import { captureLogger } from '../../../test/support/capture-logger';
import { NatsServerProcess } from '../../../test/support/nats-server-process';
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
const STREAM = 'OUTAGE_EVENTS';
const SUBJECT = 'outage.events.order';
/**
 * The runner's JetStream requests wait this long for an answer. While the client dials, nats.js
 * drops what it was to send, so a request made during the outage would hang for all of it.
 */
const REQUEST_TIMEOUT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(holds: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!holds() && Date.now() < deadline) await sleep(50);
  return holds();
}

describe('the consumer runner across a NATS outage', () => {
  const server = new NatsServerProcess();
  let nc: NatsConnection | undefined;
  let runner: ConsumerRunner | undefined;

  afterAll(async () => {
    await runner?.stop(100);
    await nc?.close();
    await server.destroy();
  });

  it('takes the next message as soon as NATS is back, not when what it asked during the outage times out', async () => {
    await server.start();
    nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: STREAM, subjects: ['outage.events.>'] });
    const spec = { stream: STREAM, durable: 'outage', filter: SUBJECT };
    await ensureDurableConsumer(jsm, spec, POLICY);
    const js = jetstream(nc);
    // Published once the client is connected (what it sends while it dials is dropped).
    const publish = async (label: string) => {
      const envelope = buildEnvelope(OrderErredEvent, erred(), label);
      const deadline = Date.now() + 20_000;
      const send = () =>
        js.publish(SUBJECT, JSON.stringify(envelope), { msgID: envelope.id, timeout: 1_000 }).then(
          () => true,
          () => false,
        );
      while (!(await send())) expect(Date.now()).toBeLessThan(deadline);
      return envelope.id;
    };
    const started: string[] = [];
    const handled: string[] = [];
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { logger, lines } = captureLogger('outage');
    runner = new ConsumerRunner({
      js: jetstream(nc, { timeout: REQUEST_TIMEOUT_MS }),
      connection: nc,
      durable: spec,
      policy: POLICY,
      logger,
      routes: [
        route(OrderErredEvent, async (envelope) => {
          started.push(envelope.id);
          if (started.length === 1) await held;
          handled.push(envelope.id);
          return DONE;
        }),
      ],
    });
    await runner.start();

    // A message in hand when NATS goes, its handler ending during the outage (its ack lost): the
    // pull under way fails with the link, as in the apps under an outage.
    const first = await publish('in-hand');
    expect(await until(() => started.includes(first), 20_000)).toBe(true);
    await server.stop();
    release();
    expect(await until(() => lines.some((line) => line.msg === 'pull failed'), 30_000)).toBe(true);
    await sleep(1_500); // past its pause after a failed pull: it would look the durable up now
    await server.start();

    const next = await publish('after');
    expect(await until(() => handled.includes(next), REQUEST_TIMEOUT_MS / 2)).toBe(true);
  });
});
