/**
 * Order + outbox commit → JetStream, through the real outbox relay: what the messaging layer adds on top
 * of the floors (shared/floors.md §1–2: PG order+outbox transaction p50 ≈ 1.1–1.2 ms; sync publish
 * p50 ≈ 0.23 ms; publish → consumer p50 ≈ 0.3–0.85 ms).
 *
 * Measures, per event: commit latency (BEGIN … COMMIT of one outbox row) and commit → the event
 * arriving at a durable pull consumer, paced at one event per 10 ms, then a burst for throughput.
 */
import { jetstream } from '@nats-io/jetstream';
import { OrderErredEvent } from '@app/contracts';
import { createLogger } from '@app/platform';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { ensureDurableConsumer, ensureStream } from '@app/messaging/jetstream/ensure-topology';
import { OutboxRepository } from '@app/messaging/outbox/repositories/outbox.repository';
import { OutboxRelay } from '@app/messaging/outbox/outbox-relay';
import { UnitOfWork } from '@app/messaging/repositories/unit-of-work';
import { createTestDatabase } from '../test/support/test-database';
import { createTestNats } from '../test/support/test-nats';
import { ascending, percentile } from './support/stats';
import { size } from './support/quick';

const PACED = size(500, 50);
const BURST = size(5_000, 200);

function summary(samples: number[]) {
  const sorted = ascending(samples);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

async function main(): Promise<void> {
  const db = await createTestDatabase('bench');
  const nats = await createTestNats('bench');
  const dataSource = createServiceDataSource({
    url: db.url,
    schema: 'vsphere',
    entities: [],
    migrations: [],
    applicationName: 'bench',
  });
  await dataSource.initialize();
  const js = jetstream(nats.nc);
  await ensureStream(nats.jsm, { ...nats.topology.streams.vsphere, maxAgeMs: 3_600_000, replicas: 1 });
  const durable = {
    stream: nats.topology.streams.vsphere.name,
    durable: 'bench',
    filter: `${nats.topology.namespace}.vsphere.order.>`,
  };
  await ensureDurableConsumer(nats.jsm, durable, {
    ackWaitMs: 30_000,
    backoffMs: [1_000],
    concurrency: 256,
    handlerTimeoutMs: 60_000,
  });
  const outbox = new OutboxRepository(dataSource, 'vsphere');
  const relay = new OutboxRelay({
    unitOfWork: new UnitOfWork(dataSource),
    outbox,
    js,
    logger: createLogger('bench', 'warn'),
    sweepMs: 60_000,
  });
  relay.start();

  const committedAt = new Map<string, bigint>();
  const arrival: number[] = [];
  let received = 0;
  const consumer = await js.consumers.get(durable.stream, durable.durable);
  const messages = await consumer.consume({ max_messages: 256 });
  const consuming = (async () => {
    for await (const message of messages) {
      const { id } = message.json<{ id: string }>();
      const start = committedAt.get(id);
      if (start !== undefined) arrival.push(Number(process.hrtime.bigint() - start) / 1e6);
      received += 1;
      message.ack();
    }
  })();

  const subject = nats.topology.subjects.orderErred;
  const data = {
    orderUuid: '0b6f4c0e-3c8e-4f55-b7f4-1f7a0f9a4b21',
    marketplaceResourceUuid: '7d8f2a51-6a3e-4d1c-9e0b-2c5d4e6f7a89',
    errorMessage: 'x'.repeat(200),
  };
  const commit: number[] = [];
  for (let i = 0; i < PACED + 50; i++) {
    const t0 = process.hrtime.bigint();
    const envelope = await dataSource.transaction((manager) =>
      outbox.append(manager, subject, OrderErredEvent, data, `o-${i}`),
    );
    const t1 = process.hrtime.bigint();
    if (i >= 50) {
      committedAt.set(envelope.id, t1);
      commit.push(Number(t1 - t0) / 1e6);
    }
    relay.wake();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  while (arrival.length < PACED) await new Promise((resolve) => setTimeout(resolve, 10));

  const before = received;
  const burstStart = process.hrtime.bigint();
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let i = w; i < BURST; i += 8) {
      await dataSource.transaction((manager) =>
        outbox.append(manager, subject, OrderErredEvent, data, `b-${i}`),
      );
      relay.wake();
    }
  });
  await Promise.all(writers);
  while (received - before < BURST) await new Promise((resolve) => setTimeout(resolve, 5));
  const burstSeconds = Number(process.hrtime.bigint() - burstStart) / 1e9;

  await messages.close();
  await consuming;
  await relay.stop();
  await dataSource.destroy();
  await nats.close();
  await db.drop();

  const figures = {
    bench: 'outbox',
    paced_events: PACED,
    commit_ms: summary(commit),
    commit_to_consumer_ms: summary(arrival),
    burst_events: BURST,
    burst_writers: 8,
    burst_events_per_s: Math.round(BURST / burstSeconds),
    floors: {
      pg_order_outbox_p50_ms: 1.2,
      publish_to_consumer_p50_ms: '0.3-0.85',
      pg_ceiling_tx_per_s: 3200,
    },
  };
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
