import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { Client } from 'pg';
import { freePort } from '../support/free-port';
import { testEnv, uniqueToken } from '../support/test-env';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');

function processesInGroup(pgid: number): string[] {
  try {
    return execFileSync('pgrep', ['-g', String(pgid), '-a'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('npm start', () => {
  const database = uniqueToken('vmm_start_');
  const namespace = uniqueToken('start-');
  const databaseUrl = (() => {
    const url = new URL(testEnv.databaseUrl);
    url.pathname = `/${database}`;
    return url.toString();
  })();

  afterAll(async () => {
    const admin = new Client({ connectionString: testEnv.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    rmSync(join(ROOT, '.cache', 'nats', namespace), { recursive: true, force: true });
  });

  it('brings up its own authenticated NATS, vcsim and the four apps with a healthy gateway, and Ctrl-C stops every process it started', async () => {
    const port = await freePort();
    const natsPort = await freePort();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true, // its own process group, as a terminal gives it
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        // No NATS_URL: npm start runs a nats-server of its own, with the project's permissions.
        NATS_URL: '',
        NATS_LISTEN: `127.0.0.1:${natsPort}`,
        NATS_NAMESPACE: namespace,
        GATEWAY_PORT: String(port),
        VCSIM_LISTEN: '127.0.0.1:0',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const pgid = child.pid!;

    try {
      let health: { status: string; services: Record<string, { status: string }> } | undefined;
      const deadline = Date.now() + 150_000;
      while (!health && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const response = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (response?.ok) health = (await response.json()) as typeof health;
      }
      if (!health) throw new Error(`the gateway never answered healthy:\n${output.slice(-3000)}`);

      expect(health.status).toBe('ok');
      expect(Object.keys(health.services).sort()).toEqual([
        'order-service',
        'sync-scheduler',
        'vsphere-adapter',
      ]);
      // The apps reached NATS with their own keys: the server refuses a client without any.
      await expect(connect({ servers: `nats://127.0.0.1:${natsPort}`, reconnect: false })).rejects.toThrow(
        /Authorization Violation/,
      );
      const running = processesInGroup(pgid).join('\n');
      expect(running).toMatch(new RegExp(`nats-server -c \\S*\\.cache/nats/${namespace}/nats-server\\.conf`));
      expect(running).toMatch(/\.cache\/vcsim\/bin\/vcsim/);
      for (const app of ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'])
        expect(running).toContain(`dist/apps/${app}/`);

      process.kill(-pgid, 'SIGINT');
      await exited;
      const deadlineStop = Date.now() + 15_000;
      while (processesInGroup(pgid).length > 0 && Date.now() < deadlineStop)
        await new Promise((r) => setTimeout(r, 200));
      expect(processesInGroup(pgid)).toEqual([]);
      expect(output).toContain('[start] stopped');
    } finally {
      // A failed run must not leave a whole system behind.
      if (processesInGroup(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
    }
  });
});
