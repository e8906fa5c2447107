import {
  ORDER_PATTERNS,
  VMWARE_OFFERING_TYPE,
  type OfferingSummary,
  type BackboneOrderView,
  type RequestReply,
} from '@app/contracts';
import { AppProcess } from '../support/app-process';
import { BACKBONE_PROJECT, createBackboneProject } from '../support/backbone-project';
import { freePort } from '../support/free-port';
import { openRequestClient } from '../support/nats-requests';
import {
  parsePrometheusText,
  sampleValue as sample,
  type PrometheusScrape,
} from '../support/prometheus-text';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';

jest.setTimeout(60_000);

function unwrap<T>(reply: RequestReply<T>): T {
  if (reply.status !== 'ok') throw new Error(`request refused: ${JSON.stringify(reply)}`);
  return reply.data;
}

async function scrape(url: string): Promise<PrometheusScrape> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe('Prometheus metrics of the gateway and the services', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let apps: AppProcess[];
  let gatewayUrl: string;
  let client: Awaited<ReturnType<typeof openRequestClient>>;

  beforeAll(async () => {
    db = await createTestDatabase('metrics');
    nats = await createTestNats('metrics');
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    apps = [
      new AppProcess('order-service', env),
      new AppProcess('vsphere-adapter', env),
      new AppProcess('sync-scheduler', env),
      new AppProcess('gateway', { ...env, GATEWAY_PORT: String(port) }),
    ];
    await Promise.all(apps.map((app) => app.start(app.app === 'gateway' ? 'gateway listening' : undefined)));
    await createBackboneProject(db.url);
    client = await openRequestClient(nats.topology.namespace);
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all((apps ?? []).map((app) => app.stop()));
    await nats?.close();
    await db?.drop();
  });

  it('serves request counts and latencies per route and the NATS link state on the gateway', async () => {
    expect((await fetch(`${gatewayUrl}/health`)).status).toBe(200);
    expect((await fetch(`${gatewayUrl}/api/customers/`)).status).toBe(401);

    const families = await scrape(`${gatewayUrl}/metrics`);
    expect(
      sample(families, 'http_requests_total', { route: '/health', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(families, 'http_requests_total', { route: '/api/customers/', status: '401' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(families, 'http_request_duration_seconds_count', { route: '/health' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(families, 'nats_connected', { app: 'gateway' })).toBe(1);
  });

  it('serves request, outbox, consumer and connection series on each service', async () => {
    const offering = unwrap(
      await client.request<RequestReply<OfferingSummary>>(ORDER_PATTERNS.createOffering, {
        name: 'metrics',
        type: VMWARE_OFFERING_TYPE,
      }),
    );
    const order = unwrap(
      await client.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.createOrder, {
        offering_uuid: offering.uuid,
        project_uuid: BACKBONE_PROJECT,
        attributes: { name: 'vm-metrics' },
        limits: { cpu: 1 },
      }),
    );
    const [orderService, adapter, scheduler] = apps;
    // The adapter's answer comes back through the order service's consumer.
    const deadline = Date.now() + 20_000;
    let families: PrometheusScrape;
    for (;;) {
      families = await scrape(orderService.metricsUrl);
      // The outcome consumer's own count: the order service's VmChanged consumer counts apart.
      const done = families.samples.some(
        (found) =>
          found.name === 'jetstream_consumer_messages_total' &&
          found.labels.outcome === 'done' &&
          found.labels.durable === nats.topology.consumers.orderServiceOutcomes.durable,
      );
      if (done || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(order.state).toBe('executing');
    expect(
      sample(families, 'nats_requests_total', { pattern: ORDER_PATTERNS.createOrder, status: 'ok' }),
    ).toBe(1);
    expect(
      sample(families, 'nats_request_duration_seconds_count', { pattern: ORDER_PATTERNS.createOrder }),
    ).toBe(1);
    expect(
      sample(families, 'jetstream_consumer_messages_total', {
        durable: nats.topology.consumers.orderServiceOutcomes.durable,
        outcome: 'done',
      }),
    ).toBe(1);
    expect(sample(families, 'outbox_backlog')).toBe(0);
    expect(sample(families, 'outbox_oldest_unpublished_age_seconds')).toBe(0);
    expect(sample(families, 'outbox_parked')).toBe(0);
    expect(sample(families, 'outbox_published_total')).toBeGreaterThanOrEqual(1);
    expect(sample(families, 'postgres_up', { app: 'order-service' })).toBe(1);
    expect(sample(families, 'nats_connected', { app: 'order-service' })).toBe(1);
    expect(families.types.jetstream_consumer_redeliveries_total).toBe('counter');

    const adapterFamilies = await scrape(adapter.metricsUrl);
    expect(
      sample(adapterFamilies, 'jetstream_consumer_messages_total', {
        durable: nats.topology.consumers.adapterOrderSubmitted.durable,
        outcome: 'done',
      }),
    ).toBe(1);
    expect(sample(adapterFamilies, 'outbox_published_total')).toBe(1);

    const schedulerFamilies = await scrape(scheduler.metricsUrl);
    expect(
      sample(schedulerFamilies, 'process_resident_memory_bytes', { app: 'sync-scheduler' }),
    ).toBeGreaterThan(0);
  });
});
