/**
 * The order flow's figures (issue 14), each against the real apps as processes:
 *
 * (a) `Marketplace.Basic` orders accepted through the gateway: 2,000 `POST /api/marketplace-orders/`
 *     by 50 clients on keep-alive connections (closed loop), after 200 to warm up: orders accepted
 *     per second, latency p50/p99, and the CPU each app spent per order. Compare with
 *     shared/floors.md §1 (a bare order + outbox transaction: ≈2,750/s at 50 connections). In the
 *     same run, on the same gateway, the same number of `GET /favicon.svg` (a static file the
 *     gateway serves from disk) at the same concurrency: `ratio_to_static_file` is the orders' rate
 *     over the static file's, the issue-21 target being ≥ 0.5.
 *
 * (b) 100 VM orders on vcsim (behind the vCenter 8 front) at concurrency 20, each followed on
 *     `GET /api/marketplace-orders/{uuid}/events` from its POST to its end: end-to-end p50/p99, and
 *     the share of the orders' time spent outside vCenter (the adapter's
 *     `vsphere_vcenter_request_seconds` summed over the run, against the orders' summed time).
 *
 * (c) 1,000 subscribers of `GET /api/events` (project members, access checked per event) while the
 *     provider approves Basic orders at 10/s: the delay from each approval's commit (the order's
 *     `modified`, the transaction's time in Postgres, same clock) to its OrderStateChanged at each
 *     subscriber, p50/p99; beside it the mean delay of a client polling every 3 s (half the period
 *     plus a measured REST round trip); the gateway's RSS with and without the subscribers. Compare
 *     with shared/floors.md §4 (commit → SSE client at N=1,000: p50 ≈ 10 ms, p99 ≈ 24 ms).
 *
 * `--cluster` runs (a) and (c) twice in one run: as above (one NATS server, one instance of each
 * app), then on a three-node NATS cluster of the bench's own (test/support/nats-cluster.ts, streams
 * with three replicas) with two instances of every app: (a)'s clients and (c)'s subscribers split
 * over the two gateways, (c)'s approvals through the first. Each figure of (a) and (c) then has a
 * `single` and a `cluster` part. (b) runs on the single node only.
 *
 * `npm run bench -- orders [--parts a,b,c] [--cluster] [--quick]` (all parts, single node by
 * default; `--quick`: small sizes, for CI); the last line is one JSON object.
 */
import type { Socket } from 'node:net';
import type { ApiSystemOptions } from '../test/support/api-system';
import { NatsCluster } from '../test/support/nats-cluster';
import { SseClient } from '../test/support/sse-client';
import { VsphereMarketplace } from '../test/support/vsphere-marketplace';
import { AppCounterProbe, perOrder } from './support/app-counters';
import { runLoad } from './support/http-load';
import { totalCpuSeconds } from './support/process-cpu';
import { startBasicMarketplace, type BasicMarketplace } from './support/basic-marketplace';
import { subscribeToOrders } from './support/order-subscribers';
import { histogramTotals } from './support/metrics-scrape';
import { size } from './support/quick';
import { ascending, percentile, rssMb } from './support/stats';

const ORDERS = size(2_000, 100);
const WARM_UP = size(200, 20);
const CONCURRENCY = size(50, 10);

const VM_ORDERS = Number(process.env.BENCH_VM_ORDERS ?? size(100, 4));
const VM_CONCURRENCY = Number(process.env.BENCH_VM_CONCURRENCY ?? size(20, 2));
const SUBSCRIBERS = size(1_000, 20);
const APPROVALS = size(100, 5);
const APPROVAL_GAP_MS = 100;
const POLL_PERIOD_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not reached within ${timeoutMs} ms`);
    await sleep(20);
  }
}
const round = (value: number) => Math.round(value * 100) / 100;

function percentiles(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = ascending(samples);
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

const rssWholeMb = (pid: number) => Math.round(rssMb(pid));

function partsWanted(): Set<string> {
  const index = process.argv.indexOf('--parts');
  const list = index >= 0 ? process.argv[index + 1] : 'a,b,c';
  return new Set(list.split(',').map((part) => part.trim()));
}

/** Where (a) and (c) run: the machine's NATS with one instance of each app, or the bench's cluster. */
interface Setup {
  name: 'single' | 'cluster';
  options: ApiSystemOptions;
}

async function basicOrders(setup: Setup): Promise<Record<string, unknown>> {
  // The apps count their statements, NATS messages and CPU (bench/support/app-counters.preload.js).
  const probe = new AppCounterProbe();
  probe.enable();
  const market = await startBasicMarketplace(`benchorders${setup.name}`, setup.options).finally(() =>
    probe.disable(),
  );
  try {
    const { system, memberToken, offering, plan, project } = market;
    const origins = system.gateways.map((gateway) => gateway.base);
    const headers = { Authorization: `Token ${memberToken}` };
    const order = (index: number) => ({
      method: 'POST' as const,
      path: '/api/marketplace-orders/',
      headers,
      body: JSON.stringify({
        offering: `${system.base}/api/marketplace-public-offerings/${offering.uuid}/`,
        project: `${system.base}/api/projects/${project.uuid}/`,
        plan: `${system.base}/api/marketplace-public-offerings/${offering.uuid}/plans/${plan.uuid}/`,
        attributes: { name: `bench-${index}`, description: 'orders bench' },
        limits: {},
        accepting_terms_of_service: true,
      }),
    });
    // The reference of the same run: a static file from the same gateways, at the same concurrency.
    const staticFile = () => ({ method: 'GET' as const, path: '/favicon.svg' });
    const pids = {
      gateway: system.gateways.map((gateway) => gateway.process.pid!),
      order_service: [system.orderService, ...system.others]
        .filter((app) => app.app === 'order-service')
        .map((app) => app.pid!),
    };
    await runLoad(origins, WARM_UP, CONCURRENCY, staticFile);
    const gatewayBeforeStatics = await probe.sum(pids.gateway);
    const benchBeforeStatics = process.cpuUsage();
    const statics = await runLoad(origins, ORDERS, CONCURRENCY, staticFile);
    const benchStatics = process.cpuUsage(benchBeforeStatics);
    const gatewayStatics = perOrder(gatewayBeforeStatics, await probe.sum(pids.gateway), ORDERS);
    await runLoad(origins, WARM_UP, CONCURRENCY, order);
    // The database's backends (the apps' pools): their CPU is the order's too.
    const backends = async () =>
      (
        await system.sql<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).map((row) => row.pid);
    const counters = () =>
      Promise.all([probe.sum(pids.gateway), probe.sum(pids.order_service)]).then(
        ([gateway, orderService]) => ({ gateway, order_service: orderService }),
      );
    const before = await counters();
    const postgresPids = await backends();
    const postgresBefore = totalCpuSeconds(postgresPids);
    const benchBefore = process.cpuUsage();
    const load = await runLoad(origins, ORDERS, CONCURRENCY, (i) => order(WARM_UP + i));
    const bench = process.cpuUsage(benchBefore);
    // Once the relay has published what the orders wrote: its statements and CPU count too.
    await eventually(async () => {
      const [{ pending }] = await system.sql<{ pending: string }>(
        'SELECT count(*) AS pending FROM marketplace.outbox WHERE published_at IS NULL',
      );
      return pending === '0';
    });
    const after = await counters();
    // Backends the pools opened during the run are not counted: the pools were warm before it.
    const postgresMs = (totalCpuSeconds(postgresPids) - postgresBefore) * 1000;
    const perRequest = (ms: number) => Math.round((ms / ORDERS) * 100) / 100;
    const benchMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
    const gateway = perOrder(before.gateway, after.gateway, ORDERS);
    const orderService = perOrder(before.order_service, after.order_service, ORDERS);
    const [{ count }] = await system.sql<{ count: string }>('SELECT count(*) FROM marketplace.orders');
    return {
      gateways: origins.length,
      orders: ORDERS,
      concurrency: CONCURRENCY,
      accepted_per_second: load.perSecond,
      static_file: {
        per_second: statics.perSecond,
        p50_ms: statics.p50,
        p99_ms: statics.p99,
        cpu_ms_per_request: {
          gateway: gatewayStatics.cpu_ms,
          bench_client: perRequest(benchMs(benchStatics)),
        },
      },
      ratio_to_static_file: Math.round((load.perSecond / statics.perSecond) * 100) / 100,
      p50_ms: load.p50,
      p99_ms: load.p99,
      max_ms: load.max,
      failures: load.failures,
      statuses: load.statuses,
      orders_stored: Number(count),
      cpu_ms_per_order: {
        gateway: gateway.cpu_ms,
        order_service: orderService.cpu_ms,
        postgres: perRequest(postgresMs),
        bench_client: perRequest(benchMs(bench)),
      },
      postgres_backends: postgresPids.length,
      statements_per_order: { gateway: gateway.statements, order_service: orderService.statements },
      nats_messages_per_order: {
        gateway: { publishes: gateway.nats_publishes, requests: gateway.nats_requests },
        order_service: { publishes: orderService.nats_publishes, requests: orderService.nats_requests },
      },
      order_service_statements: orderService.by_statement,
    };
  } finally {
    await market.system.stop();
    probe.remove();
  }
}

async function vmOrders(): Promise<Record<string, unknown>> {
  // As many orders in the adapter's hands as the load has in flight (its default is 8): what waits in
  // the adapter's queue would otherwise count as time outside vCenter.
  const market = await VsphereMarketplace.start('benchvm', {
    adapterEnv: { ORDER_CONCURRENCY: String(VM_CONCURRENCY) },
  });
  try {
    const { api } = market;
    const template = market.templates[0];
    const body = (index: number) => ({
      offering: market.offering.uuid,
      project: market.project.uuid,
      plan: market.offering.plans[0].uuid,
      attributes: { name: `bench-vm-${index}`, template: template.uuid },
      limits: { cpu: 1, ram: 1024 },
    });
    const metrics = market.apps.adapter.metricsUrl;
    const vcenterBefore = (await histogramTotals(metrics, 'vsphere_vcenter_request_seconds')).sum;
    const durations: number[] = [];
    const states: Record<string, number> = {};
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < VM_ORDERS) {
        const index = next++;
        const t0 = Date.now();
        const order = await api.ok<{ uuid: string }>(
          'member',
          'POST',
          '/api/marketplace-orders/',
          body(index),
        );
        const stream = await SseClient.open(`${api.base}/api/marketplace-orders/${order.uuid}/events`, {
          token: api.tokens.member,
        });
        await stream.waitFor((s) => s.ended, 600_000, `order ${order.uuid} to end`);
        durations.push(Date.now() - t0);
        const last = stream.data<{ state: string }>('OrderStateChanged').pop();
        states[last?.state ?? 'none'] = (states[last?.state ?? 'none'] ?? 0) + 1;
        stream.close();
      }
    };
    await Promise.all(Array.from({ length: VM_CONCURRENCY }, worker));
    const wallSeconds = (Date.now() - started) / 1000;
    const vcenterSeconds =
      (await histogramTotals(metrics, 'vsphere_vcenter_request_seconds')).sum - vcenterBefore;
    const orderSeconds = durations.reduce((total, ms) => total + ms, 0) / 1000;
    return {
      orders: VM_ORDERS,
      concurrency: VM_CONCURRENCY,
      final_states: states,
      end_to_end_ms: percentiles(durations),
      orders_per_second: round(VM_ORDERS / wallSeconds),
      vcenter_seconds: round(vcenterSeconds),
      order_seconds: round(orderSeconds),
      share_outside_vcenter: round(1 - vcenterSeconds / orderSeconds),
    };
  } finally {
    await market.stop();
  }
}

async function sseDelay(setup: Setup): Promise<Record<string, unknown>> {
  // Every subscriber is the one member: the per-user stream cap is lifted to their number.
  const market: BasicMarketplace = await startBasicMarketplace(`benchsse${setup.name}`, {
    ...setup.options,
    gatewayEnv: { ...setup.options.gatewayEnv, SSE_MAX_STREAMS_PER_USER: String(SUBSCRIBERS) },
  });
  const sockets: Socket[] = [];
  try {
    const { system, memberToken, offering, plan, project } = market;
    const ports = system.gateways.map((gateway) => gateway.port);
    const gatewayPid = system.gateway.pid!;
    const rssEmpty = rssWholeMb(gatewayPid);
    const arrivals = new Map<string, number[]>();
    for (let i = 0; i < SUBSCRIBERS; i++) {
      sockets.push(
        await subscribeToOrders(
          ports[i % ports.length],
          memberToken,
          '?type=OrderStateChanged',
          (uuid, state, at) => {
            if (state !== 'executing') return;
            const list = arrivals.get(uuid) ?? [];
            list.push(at);
            arrivals.set(uuid, list);
          },
        ),
      );
    }
    const rssSubscribed = rssWholeMb(gatewayPid);
    const placed: string[] = [];
    for (let i = 0; i < APPROVALS + 5; i++) {
      const order = await system.ok<{ uuid: string }>(memberToken, 'POST', '/api/marketplace-orders/', {
        offering: offering.uuid,
        project: project.uuid,
        plan: plan.uuid,
        attributes: { name: `sse-${i}` },
      });
      placed.push(order.uuid);
    }
    await sleep(500);
    const restRoundTrips: number[] = [];
    for (const uuid of placed) {
      const t0 = performance.now();
      await system.ok(market.providerToken, 'POST', `/api/marketplace-orders/${uuid}/approve_by_provider/`);
      restRoundTrips.push(performance.now() - t0);
      await sleep(APPROVAL_GAP_MS);
    }
    await sleep(1_000);
    const rssAfter = rssWholeMb(gatewayPid);
    const measured = placed.slice(5);
    const committed = await system.sql<{ uuid: string; ms: string }>(
      `SELECT uuid::text, (extract(epoch FROM modified) * 1000)::text AS ms FROM marketplace.orders WHERE uuid = ANY($1::uuid[])`,
      [measured],
    );
    const delays: number[] = [];
    let missing = 0;
    for (const row of committed) {
      const seen = arrivals.get(row.uuid) ?? [];
      missing += SUBSCRIBERS - seen.length;
      for (const at of seen) delays.push(at - Number(row.ms));
    }
    const rest = percentiles(restRoundTrips);
    return {
      gateways: ports.length,
      subscribers: SUBSCRIBERS,
      state_changes: measured.length,
      events_missing: missing,
      commit_to_subscriber_ms: percentiles(delays),
      polling_every_3s_mean_delay_ms: round(POLL_PERIOD_MS / 2 + rest.p50),
      first_gateway_rss_mb: { no_subscribers: rssEmpty, subscribed: rssSubscribed, after_events: rssAfter },
    };
  } finally {
    for (const socket of sockets) socket.destroy();
    await market.system.stop();
  }
}

const SINGLE: Setup = { name: 'single', options: {} };

/** Runs `part` on the single node and, with `--cluster`, on the cluster too; one figure or both. */
async function onEachSetup(
  label: string,
  part: (setup: Setup) => Promise<Record<string, unknown>>,
  cluster?: NatsCluster,
): Promise<Record<string, unknown>> {
  const single = await part(SINGLE);
  console.log(`${label} single ${JSON.stringify(single)}`);
  if (!cluster) return single;
  const clustered = await part({
    name: 'cluster',
    options: { natsUrls: cluster.urls, instances: 2, appEnv: { NATS_STREAM_REPLICAS: '3' } },
  });
  console.log(`${label} cluster ${JSON.stringify(clustered)}`);
  return { single, cluster: clustered };
}

async function main(): Promise<void> {
  const parts = partsWanted();
  const figures: Record<string, unknown> = {};
  const cluster = process.argv.includes('--cluster') ? new NatsCluster() : undefined;
  try {
    await cluster?.start();
    if (parts.has('a')) figures.basic_orders = await onEachSetup('(a)', basicOrders, cluster);
    if (parts.has('b')) {
      figures.vm_orders = await vmOrders();
      console.log(`(b) ${JSON.stringify(figures.vm_orders)}`);
    }
    if (parts.has('c')) figures.sse = await onEachSetup('(c)', sseDelay, cluster);
  } finally {
    await cluster?.destroy();
  }
  console.log(JSON.stringify(figures));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
