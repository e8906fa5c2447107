/**
 * `waldur-cli marketplace order wait` on SSE against a 3-second polling loop (Waldur's CLI polls):
 * for each of 50 `Marketplace.Basic` orders, the delay between the order reaching done (the
 * provider's `set_state_done` answered) and the wait returning, and the HTTP requests the wait made.
 * The CLI runs as a process (`--debug` logs each request); the polling loop runs in this process,
 * one GET every 3 s from a random phase, as a client started at an arbitrary time would. Also the
 * cold start of `waldur-cli --help` (pinned Node 24, 10 runs).
 *
 * `npm run bench -- cli-wait` (needs `npm run build`); the last line is one JSON object.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, startCli } from '../test/support/cli-process';
import { startBasicMarketplace, type BasicMarketplace } from './support/basic-marketplace';
import { ascending, percentile } from './support/stats';
import { size } from './support/quick';

const ORDERS = size(50, 3);
const POLL_INTERVAL_MS = 3_000;

type Json = Record<string, unknown>;

function summary(delays: number[], requests: number[]): Json {
  return {
    delay_p50_ms: percentile(ascending(delays), 50),
    delay_p99_ms: percentile(ascending(delays), 99),
    delay_max_ms: Math.max(...delays),
    requests_per_wait_p50: percentile(ascending(requests), 50),
    requests_per_wait_max: Math.max(...requests),
  };
}

async function placeOrder(market: BasicMarketplace, index: number): Promise<string> {
  const { system, memberToken, offering, plan, project } = market;
  const order = await system.ok<Json>(memberToken, 'POST', '/api/marketplace-orders/', {
    offering: offering.uuid,
    project: project.uuid,
    plan: plan.uuid,
    attributes: { name: `wait-${index}` },
  });
  await system.ok(
    market.providerToken,
    'POST',
    `/api/marketplace-orders/${order.uuid as string}/approve_by_provider/`,
  );
  return order.uuid as string;
}

/** Completes the order by hand; the moment its answer arrives is when the order is done. */
async function complete(market: BasicMarketplace, order: string): Promise<number> {
  await market.system.ok(market.providerToken, 'POST', `/api/marketplace-orders/${order}/set_state_done/`);
  return performance.now();
}

async function cliWaits(market: BasicMarketplace): Promise<Json> {
  const delays: number[] = [];
  const requests: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const order = await placeOrder(market, i);
    const wait = startCli(
      ['marketplace', 'order', 'wait', order, '--jmespath', "state=='done'", '--format', 'json', '--debug'],
      {
        WALDUR_API_URL: market.system.base,
        WALDUR_TOKEN: market.memberToken,
        WALDUR_CLI_CONFIG: '/nonexistent/config.yaml',
      },
    );
    const exited = wait.done.then(() => performance.now());
    // Done once the wait is under way: its first GET answered (the stream is already open then).
    while (!/marketplace-orders\/[^ ]+ → 200/.test(wait.output().stderr)) await sleep(5);
    const doneAt = await complete(market, order);
    delays.push(Math.round((await exited) - doneAt));
    const { stderr } = await wait.done;
    requests.push(stderr.split('\n').filter((line) => /^debug: GET /.test(line)).length);
  }
  return summary(delays, requests);
}

async function pollingWaits(market: BasicMarketplace): Promise<Json> {
  const orders: string[] = [];
  for (let i = 0; i < ORDERS; i++) orders.push(await placeOrder(market, ORDERS + i));
  const requests = orders.map(() => 0);
  const seenDone = orders.map(() => 0);
  const pollers = orders.map(async (order, i) => {
    await sleep(Math.random() * POLL_INTERVAL_MS);
    for (;;) {
      requests[i]++;
      const view = await market.system.ok<Json>(
        market.memberToken,
        'GET',
        `/api/marketplace-orders/${order}/`,
      );
      if (view.state === 'done') return (seenDone[i] = performance.now());
      await sleep(POLL_INTERVAL_MS);
    }
  });
  const doneAt: number[] = [];
  for (const order of orders) {
    doneAt.push(await complete(market, order));
    await sleep(100);
  }
  await Promise.all(pollers);
  return summary(
    seenDone.map((seen, i) => Math.round(seen - doneAt[i])),
    requests,
  );
}

async function helpColdStart(): Promise<Json> {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) times.push((await runCli(['--help'], {})).ms);
  return { p50_ms: percentile(times, 50), max_ms: Math.max(...times), runs: times.length };
}

async function main(): Promise<void> {
  const market = await startBasicMarketplace('benchcliwait');
  try {
    const sse = await cliWaits(market);
    console.log('waldur-cli wait (SSE)', sse);
    const polling = await pollingWaits(market);
    console.log('3 s polling loop', polling);
    const help = await helpColdStart();
    console.log('waldur-cli --help', help);
    console.log(
      JSON.stringify({ orders: ORDERS, cli_wait_sse: sse, polling_3s: polling, help_cold_start: help }),
    );
  } finally {
    await market.system.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
