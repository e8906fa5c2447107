import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PRELOAD = join(__dirname, 'app-counters.preload.js');

/** What one app has sent so far (see app-counters.preload.js). */
export interface AppCounters {
  statements: number;
  natsPublishes: number;
  natsRequests: number;
  byStatement: Record<string, number>;
  /** process.cpuUsage(), µs. */
  cpu: { user: number; system: number };
}

/**
 * The apps a bench starts after `enable()` load app-counters.preload.js: `read(pid)` asks one for its
 * counters on its socket.
 */
export class AppCounterProbe {
  private readonly dir = mkdtempSync(join(tmpdir(), 'bench-counters-'));
  private readonly previousArgs = process.env.APP_NODE_ARGS;

  enable(): void {
    process.env.APP_NODE_ARGS = [this.previousArgs ?? '', `--require ${PRELOAD}`].join(' ').trim();
    process.env.BENCH_COUNTERS_DIR = this.dir;
  }

  disable(): void {
    if (this.previousArgs === undefined) delete process.env.APP_NODE_ARGS;
    else process.env.APP_NODE_ARGS = this.previousArgs;
    delete process.env.BENCH_COUNTERS_DIR;
  }

  /** Once the apps have stopped. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  read(pid: number): Promise<AppCounters> {
    return new Promise((resolve, reject) => {
      const asked = request({ socketPath: join(this.dir, `${pid}.sock`), path: '/' }, (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve(JSON.parse(body) as AppCounters));
        answer.on('error', reject);
      });
      asked.on('error', reject);
      asked.end();
    });
  }

  /** Several instances' counters, summed. */
  async sum(pids: number[]): Promise<AppCounters> {
    const total: AppCounters = {
      statements: 0,
      natsPublishes: 0,
      natsRequests: 0,
      byStatement: {},
      cpu: { user: 0, system: 0 },
    };
    for (const pid of pids) {
      const one = await this.read(pid);
      total.statements += one.statements;
      total.natsPublishes += one.natsPublishes;
      total.natsRequests += one.natsRequests;
      total.cpu.user += one.cpu.user;
      total.cpu.system += one.cpu.system;
      for (const [text, count] of Object.entries(one.byStatement))
        total.byStatement[text] = (total.byStatement[text] ?? 0) + count;
    }
    return total;
  }
}

/** Per order: what the counters grew by between `before` and `after`, over `orders`. */
export function perOrder(before: AppCounters, after: AppCounters, orders: number) {
  const per = (value: number) => Math.round((value / orders) * 100) / 100;
  const statements: Record<string, number> = {};
  for (const [text, count] of Object.entries(after.byStatement)) {
    const grew = count - (before.byStatement[text] ?? 0);
    if (grew > 0) statements[text] = per(grew);
  }
  return {
    statements: per(after.statements - before.statements),
    nats_publishes: per(after.natsPublishes - before.natsPublishes),
    nats_requests: per(after.natsRequests - before.natsRequests),
    cpu_ms: per((after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000),
    by_statement: Object.fromEntries(Object.entries(statements).sort(([, a], [, b]) => b - a)),
  };
}
