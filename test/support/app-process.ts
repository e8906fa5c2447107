import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registerAppOutput } from './app-output';
import { registerLogSource } from './secret-scan';

const ROOT = join(__dirname, '..', '..');

/**
 * Where the test vCenters are (vcsim and its front listen on loopback), set explicitly for every
 * adapter a suite starts: the adapter refuses loopback by default. A suite's env may override it.
 */
export const TEST_VCENTER_NETWORKS = '127.0.0.0/8,::1/128';
const APP_DEFAULTS: Partial<Record<AppName, Record<string, string>>> = {
  'vsphere-adapter': { VCENTER_ALLOWED_NETWORKS: TEST_VCENTER_NETWORKS },
};
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

/** Longest line a tail shows whole: a crash's stack trace stays readable, a dump of rows does not flood. */
const LINE_LIMIT = 2_000;

export type AppName = 'order-service' | 'vsphere-adapter' | 'sync-scheduler' | 'gateway';
export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** One app as a real process, started from its build, with its JSON log lines kept for assertions. */
export class AppProcess {
  readonly lines: LogLine[] = [];
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly app: AppName,
    private readonly env: Record<string, string>,
  ) {
    // Every line is scanned for the secrets the test used (see secret-scan.ts).
    registerLogSource(app, () => this.lines);
    // A failing fault test prints every process's last lines (see app-output.ts).
    registerAppOutput({
      label: () => `${app}#${this.pid ?? 'not started'}`,
      status: () => (this.running ? 'running' : (this.exitStatus ?? 'not started')),
      tail: (count) => this.tail(count),
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True from spawn until the process exits, whether it stopped, crashed or was killed. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the process ended (exit code or signal); undefined while it runs or before it started. */
  get exitStatus(): string | undefined {
    if (!this.child || this.running) return undefined;
    return this.child.signalCode ?? `exit code ${this.child.exitCode}`;
  }

  // A start is waited on as long as a loaded CI machine needs (a quiet one starts an app in 1–3 s):
  // the deadline only turns a hung start into an error.
  async start(readyMessage = `${this.app} started`, timeoutMs = 90_000): Promise<void> {
    const entry = join(ROOT, 'dist', 'apps', this.app, 'apps', this.app, 'src', 'main.js');
    if (!existsSync(entry))
      throw new Error(`${entry} is missing: run \`npm run build\` before the e2e tests.`);
    // APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every app a bench or test starts
    // (Node refuses --cpu-prof in NODE_OPTIONS).
    const nodeArgs = (process.env.APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(NODE, [...nodeArgs, entry], {
      cwd: ROOT,
      // A free metrics port per process: suites run several instances of one app side by side.
      env: { ...process.env, METRICS_PORT: '0', ...APP_DEFAULTS[this.app], ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let buffer = '';
    const collect = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) {
        if (!part.trim()) continue;
        try {
          this.lines.push(JSON.parse(part) as LogLine);
        } catch {
          this.lines.push({ msg: part, level: 'raw' });
        }
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    await this.waitForLog((line) => line.msg === readyMessage, timeoutMs);
  }

  async waitForLog(predicate: (line: LogLine) => boolean, timeoutMs = 20_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(predicate);
      if (found) return found;
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`${this.app} exited with ${this.child.exitCode}:\n${this.tail()}`);
      }
      if (Date.now() > deadline) throw new Error(`${this.app}: expected log line not seen:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Where a service serves `/metrics` (a free port each start), from its start-up line. */
  get metricsUrl(): string {
    // The gateway says it once it listens; the services once they started.
    const ready = this.app === 'gateway' ? 'gateway listening' : `${this.app} started`;
    const line = this.lines.find((candidate) => candidate.msg === ready);
    if (typeof line?.metrics !== 'string') throw new Error(`${this.app} has not logged its metrics address`);
    return line.metrics;
  }

  /** SIGKILL is a crash: no shutdown hook runs, nothing is acked or flushed. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) return this.child?.exitCode ?? null;
    this.child.kill(signal);
    return this.exited!;
  }

  /** The last `count` lines, each cut at LINE_LIMIT characters (a long one still shows its start). */
  tail(count = 20): string {
    return this.lines
      .slice(-count)
      .map((line) => {
        const text = JSON.stringify(line);
        return text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT)}…` : text;
      })
      .join('\n');
  }
}
