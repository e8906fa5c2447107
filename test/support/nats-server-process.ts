import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export interface NatsServerOptions {
  /** Extra configuration text (nats-server's own format), e.g. an `authorization` block. */
  config?: string;
  /** Port to listen on; a free one when unset. A restart keeps the port, so clients reconnect. */
  port?: number;
}

/**
 * A nats-server with JetStream of the test's own, on a port of its own, with its store in a temp
 * folder that survives `stop()` + `start()` (a restart keeps the streams, as a real one does).
 * The machine's NATS on 4222 is never touched: outages and auth are tried on this one.
 */
export class NatsServerProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  readonly folder = mkdtempSync(join(tmpdir(), 'vmm-nats-'));
  port = 0;
  output = '';

  constructor(private readonly options: NatsServerOptions = {}) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(timeoutMs = 10_000): Promise<void> {
    if (this.port === 0) this.port = this.options.port ?? (await freePort());
    const configFile = join(this.folder, 'nats-server.conf');
    writeFileSync(
      configFile,
      [
        `listen: 127.0.0.1:${this.port}`,
        `jetstream { store_dir: "${join(this.folder, 'store')}" }`,
        this.options.config ?? '',
      ].join('\n'),
    );
    const child = spawn(NATS_SERVER, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => void (this.output = (this.output + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    while (!(await accepts(this.port))) {
      if (child.exitCode !== null)
        throw new Error(`nats-server exited with ${child.exitCode}:\n${this.output}`);
      if (Date.now() > deadline)
        throw new Error(`nats-server did not listen on ${this.port}:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGTERM by default; SIGKILL is a crash. Resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    await this.exited;
  }

  /** Stops the server and removes its store. */
  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.folder, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
