import { ORDER_OPERATIONS } from '@app/contracts';
import { AppProcess } from '../support/app-process';
import {
  parsePrometheusText,
  sampleValue as sample,
  type PrometheusScrape,
} from '../support/prometheus-text';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(120_000);

async function scrape(url: string): Promise<PrometheusScrape> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe('Prometheus metrics of the gateway and the services', () => {
  let market: VsphereMarketplace;
  let scheduler: AppProcess;
  let apps: AppProcess[];
  let gatewayUrl: string;

  beforeAll(async () => {
    // The real order path, on vcsim: the adapter's consumer and outbox count a VM order's work.
    market = await VsphereMarketplace.start('metrics');
    scheduler = new AppProcess('sync-scheduler', market.env);
    await scheduler.start();
    const { orderService, adapter, gateway } = market.apps;
    apps = [orderService, adapter, scheduler, gateway];
    gatewayUrl = market.api.base;
  });

  afterAll(async () => {
    await scheduler?.stop();
    await market?.stop();
  });

  it('serves request counts and latencies per route and the NATS link state on the gateway', async () => {
    expect((await fetch(`${gatewayUrl}/health`)).status).toBe(200);
    expect((await fetch(`${gatewayUrl}/api/customers/`)).status).toBe(401);

    const gateway = apps[3];
    const families = await scrape(gateway.metricsUrl);
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

  it('serves the metrics on their own port only: the public port answers /metrics as any unknown path', async () => {
    const gateway = apps[3];
    expect(new URL(gateway.metricsUrl).port).not.toBe(new URL(gatewayUrl).port);
    const answer = await fetch(`${gatewayUrl}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ detail: 'Not found.' });
  });

  it('serves request, outbox, consumer and connection series on each service', async () => {
    const order = await market.api.ok<{ uuid: string; state: string }>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      {
        offering: market.offering.uuid,
        project: market.project.uuid,
        plan: market.offering.plans[0].uuid,
        attributes: { name: 'vm-metrics', template: market.templates[0].uuid },
        limits: { cpu: 1, ram: 1024 },
      },
    );
    const [orderService, adapter] = apps;
    // The adapter's answer comes back through the order service's consumer.
    const deadline = Date.now() + 60_000;
    let families: PrometheusScrape;
    for (;;) {
      families = await scrape(orderService.metricsUrl);
      // The outcome consumer's own count: the order service's VmChanged consumer counts apart.
      const done = families.samples.some(
        (found) =>
          found.name === 'jetstream_consumer_messages_total' &&
          found.labels.outcome === 'done' &&
          found.labels.durable === market.nats.topology.consumers.orderServiceOutcomes.durable,
      );
      // The outcome writes the order's state changes to the outbox: published a moment later.
      if ((done && sample(families, 'outbox_backlog') === 0) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(order.state).toBe('executing');
    const create = ORDER_OPERATIONS.create.pattern;
    expect(sample(families, 'nats_requests_total', { pattern: create, status: 'ok' })).toBe(1);
    expect(sample(families, 'nats_request_duration_seconds_count', { pattern: create })).toBe(1);
    expect(
      sample(families, 'jetstream_consumer_messages_total', {
        durable: market.nats.topology.consumers.orderServiceOutcomes.durable,
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
        durable: market.nats.topology.consumers.adapterOrderSubmitted.durable,
        outcome: 'done',
      }),
    ).toBe(1);
    // The order's answer, besides the synchronisation's events.
    expect(sample(adapterFamilies, 'outbox_published_total')).toBeGreaterThanOrEqual(1);

    const schedulerFamilies = await scrape(scheduler.metricsUrl);
    expect(
      sample(schedulerFamilies, 'process_resident_memory_bytes', { app: 'sync-scheduler' }),
    ).toBeGreaterThan(0);
  });
});
