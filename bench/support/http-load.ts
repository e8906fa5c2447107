import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ascending, percentile } from './stats';

export interface LoadResult {
  requests: number;
  failures: number;
  statuses: Record<string, number>;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `total` requests through `concurrency` keep-alive connections, each worker sending its next
 * request when the last one answered (closed loop, as 50 clients would). Latency per request in ms.
 * Several origins (gateway instances) share the workers in turn, as a load balancer would.
 */
export async function runLoad(
  origins: string | string[],
  total: number,
  concurrency: number,
  next: (index: number) => LoadRequest,
  expectStatus: (status: number) => boolean = (status) => status < 300,
): Promise<LoadResult> {
  const bases = typeof origins === 'string' ? [origins] : origins;
  const pools = bases.map(
    (origin) => new Pool(origin, { connections: Math.ceil(concurrency / bases.length), pipelining: 1 }),
  );
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async (index: number) => {
    const pool = pools[index % pools.length];
    while (issued < total) {
      const request = next(issued++);
      const t0 = performance.now();
      const answer = await pool.request({
        method: request.method,
        path: request.path,
        headers: { 'content-type': 'application/json', ...request.headers },
        body: request.body,
      });
      await answer.body.text();
      latencies.push(performance.now() - t0);
      statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
      if (!expectStatus(answer.statusCode)) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(pools.map((pool) => pool.close()));
  const sorted = ascending(latencies);
  const at = (p: number) => round(percentile(sorted, p));
  return {
    requests: total,
    failures,
    statuses,
    seconds: round(seconds),
    perSecond: Math.round(total / seconds),
    p50: at(50),
    p99: at(99),
    max: round(sorted[sorted.length - 1]),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
