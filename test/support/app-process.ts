import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registerLogSource } from './secret-scan';

const ROOT = join(__dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

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

  async start(readyMessage = `${this.app} started`, timeoutMs = 20_000): Promise<void> {
    const entry = join(ROOT, 'dist', 'apps', this.app, 'apps', this.app, 'src', 'main.js');
    if (!existsSync(entry))
      throw new Error(`${entry} is missing: run \`npm run build\` before the e2e tests.`);
    // APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every app a bench or test starts
    // (Node refuses --cpu-prof in NODE_OPTIONS).
    const nodeArgs = (process.env.APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(NODE, [...nodeArgs, entry], {
      cwd: ROOT,
      // A free metrics port per process: suites run several instances of one app side by side.
      env: { ...process.env, METRICS_PORT: '0', ...this.env },
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
    const line = this.lines.find((candidate) => candidate.msg === `${this.app} started`);
    if (typeof line?.metrics !== 'string') throw new Error(`${this.app} has not logged its metrics address`);
    return line.metrics;
  }

  /** SIGKILL is a crash: no shutdown hook runs, nothing is acked or flushed. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) return this.child?.exitCode ?? null;
    this.child.kill(signal);
    return this.exited!;
  }

  tail(count = 20): string {
    return this.lines
      .slice(-count)
      .map((line) => JSON.stringify(line))
      .join('\n');
  }
}
