import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { acceptsConnections, ServerChild } from './server-child';

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
  private readonly server = new ServerChild('nats-server');
  readonly folder = mkdtempSync(join(tmpdir(), 'vmm-nats-'));
  port = 0;

  constructor(private readonly options: NatsServerOptions = {}) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.server.pid;
  }

  get output(): string {
    return this.server.output;
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
    await this.server.start(
      NATS_SERVER,
      ['-c', configFile],
      {},
      () => acceptsConnections(this.port),
      timeoutMs,
    );
  }

  /** SIGTERM by default; SIGKILL is a crash. Resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.server.stop(signal);
  }

  /** Stops the server and removes its store. */
  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.folder, { recursive: true, force: true });
  }
}
