/**
 * The order flow's figures (issue 14), each against the real apps as processes:
 *
 * (a) `Marketplace.Basic` orders accepted through the gateway: 2,000 `POST /api/marketplace-orders/`
 *     by 50 clients on keep-alive connections (closed loop), after 200 to warm up: orders accepted
 *     per second, latency p50/p99, and the CPU each app spent per order. Compare with
 *     shared/floors.md §1 (a bare order + outbox transaction: ≈2,750/s at 50 connections).
 *
 * `npm run bench -- orders [--parts a,b,c]`; the last line is one JSON object with the figures.
 */
import { runLoad } from './support/http-load';
import { cpuSeconds } from './support/process-cpu';
import { startBasicMarketplace } from './support/basic-marketplace';

const ORDERS = 2_000;
const WARM_UP = 200;
const CONCURRENCY = 50;

function partsWanted(): Set<string> {
  const index = process.argv.indexOf('--parts');
  const list = index >= 0 ? process.argv[index + 1] : 'a';
  return new Set(list.split(',').map((part) => part.trim()));
}

async function basicOrders(): Promise<Record<string, unknown>> {
  const market = await startBasicMarketplace('benchorders');
  try {
    const { system, memberToken, offering, plan, project } = market;
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
    await runLoad(system.base, WARM_UP, CONCURRENCY, order);
    const pids = { gateway: system.gateway.pid!, orderService: system.orderService.pid! };
    const before = { gateway: cpuSeconds(pids.gateway), orderService: cpuSeconds(pids.orderService) };
    const load = await runLoad(system.base, ORDERS, CONCURRENCY, (i) => order(WARM_UP + i));
    const cpuMsPerOrder = (app: keyof typeof pids) =>
      Math.round(((cpuSeconds(pids[app]) - before[app]) * 1e6) / ORDERS) / 1000;
    const [{ count }] = await system.sql<{ count: string }>('SELECT count(*) FROM marketplace.orders');
    return {
      orders: ORDERS,
      concurrency: CONCURRENCY,
      accepted_per_second: load.perSecond,
      p50_ms: load.p50,
      p99_ms: load.p99,
      max_ms: load.max,
      failures: load.failures,
      statuses: load.statuses,
      orders_stored: Number(count),
      cpu_ms_per_order: { gateway: cpuMsPerOrder('gateway'), order_service: cpuMsPerOrder('orderService') },
    };
  } finally {
    await market.system.stop();
  }
}

async function main(): Promise<void> {
  const parts = partsWanted();
  const figures: Record<string, unknown> = {};
  if (parts.has('a')) {
    figures.basic_orders = await basicOrders();
    console.log(`(a) ${JSON.stringify(figures.basic_orders)}`);
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
