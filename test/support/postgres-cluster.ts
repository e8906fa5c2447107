import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { ServerChild } from './server-child';

const BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** How a cluster goes down: `fast` is `pg_ctl -m fast` (SIGINT: clients cut, clean checkpoint), `crash` SIGKILLs every process of it. */
export type PostgresStopMode = 'fast' | 'crash';

/**
 * A PostgreSQL 15 cluster of the test's own: initdb into a temp folder, trust auth, listening on
 * 127.0.0.1 at a free port with its unix socket in the same folder. Restarts keep the port and
 * the data, so clients reconnect to what they knew. The machine's Postgres on 5432 is never touched.
 *
 * Tests run as root (CI) and Postgres refuses to: the server runs as user `postgres`, set by
 * spawn's uid/gid rather than through runuser/su, so the pid we hold is the postmaster's own and a
 * signal reaches it (and, for a crash, its whole process group) directly.
 */
export class PostgresCluster {
  readonly folder = mkdtempSync(join(tmpdir(), 'vmm-pg-'));
  port = 0;
  private readonly server = new ServerChild('postgres');
  private readonly user = postgresUser();

  get dataDir(): string {
    return join(this.folder, 'data');
  }

  get pid(): number | undefined {
    return this.server.pid;
  }

  get running(): boolean {
    return this.server.running;
  }

  get output(): string {
    return this.server.output;
  }

  /** A connection URL for `database` on this cluster (user postgres, no password: trust auth). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** initdb (once) and start; resolves when a connection runs `SELECT 1`. */
  async start(timeoutMs = 30_000): Promise<void> {
    if (this.running) return;
    if (this.port === 0) {
      this.port = await freePort();
      this.initdb();
    }
    await this.server.start(
      join(BIN, 'postgres'),
      [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${this.folder}`,
        // A crash test kills processes, not the machine: what reached the OS survives, so fsync and
        // full-page writes can go. synchronous_commit stays on: with it off a commit is acknowledged
        // before its WAL leaves shared memory, and a SIGKILL loses transactions the apps saw commit.
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
        '-c',
        'shared_buffers=32MB',
      ],
      // A process group of its own: a crash kills the postmaster and its backends together.
      { uid: this.user.uid, gid: this.user.gid, env: serverEnv(), detached: true },
      () => this.answers(),
      timeoutMs,
    );
  }

  /** Stops the cluster; resolves once the postmaster (and, for a crash, every backend) is gone. */
  async stop(mode: PostgresStopMode = 'fast'): Promise<void> {
    if (!this.running) return;
    const pid = this.server.pid!;
    if (mode === 'crash') {
      await this.server.stop('SIGKILL', 'group');
      await waitForGroupGone(pid);
    } else {
      await this.server.stop('SIGINT');
    }
  }

  async restart(mode: PostgresStopMode = 'fast'): Promise<void> {
    await this.stop(mode);
    await this.start();
  }

  /** Creates an empty database; the services migrate it at their start. */
  async createDatabase(name: string): Promise<string> {
    await this.query(`CREATE DATABASE "${name}"`);
    return this.url(name);
  }

  async query<T>(text: string, values: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database), connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Stops the cluster and removes its folder. */
  async destroy(): Promise<void> {
    await this.stop('crash').catch(() => undefined);
    rmSync(this.folder, { recursive: true, force: true });
  }

  private initdb(): void {
    chownSync(this.folder, this.user.uid, this.user.gid);
    mkdirSync(this.dataDir, { mode: 0o700 });
    chownSync(this.dataDir, this.user.uid, this.user.gid);
    execFileSync(
      join(BIN, 'initdb'),
      ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'],
      { uid: this.user.uid, gid: this.user.gid, env: serverEnv(), stdio: 'pipe' },
    );
  }

  private async answers(): Promise<boolean> {
    try {
      await this.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}

function postgresUser(): { uid: number; gid: number } {
  if (process.getuid?.() !== 0) {
    // Not root: the server runs as the current user, which Postgres accepts.
    return { uid: process.getuid!(), gid: process.getgid!() };
  }
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: '/tmp' };
}

/** After a SIGKILL of the group, a new postmaster must not find the old backends holding shared memory. */
async function waitForGroupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
