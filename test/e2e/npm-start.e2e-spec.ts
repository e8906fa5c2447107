import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { Client } from 'pg';
import { freePort } from '../support/free-port';
import { testEnv, uniqueToken } from '../support/test-env';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
const DEMO_OFFERING = 'Demo vSphere VMs';

type Json = Record<string, unknown>;
type Plan = Json & { uuid: string; name: string; prices: Record<string, string> };
type Offering = Json & { uuid: string; name: string; state: string; plans: Plan[] };
type Template = Json & { name: string; backend_id: string; os: string; os_version: string; guest_os: string };

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One `npm start` in a process group of its own, as a terminal runs it. */
class NpmStart {
  stdout = '';
  output = '';
  private readonly exited: Promise<number | null>;
  readonly pgid: number;

  constructor(env: Record<string, string>) {
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true, // its own process group, as a terminal gives it
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    this.pgid = child.pid!;
  }

  /** The staff token npm start prints for the demo (40 hex digits on a line of its own). */
  get token(): string {
    const match = /^([0-9a-f]{40})$/m.exec(this.stdout);
    if (!match) throw new Error(`npm start printed no token:\n${this.output.slice(-3000)}`);
    return match[1];
  }

  /** The demo staff user's password, printed (stdout) by the first start on a database only. */
  password(): string | undefined {
    return /^([A-Za-z0-9_-]{24})$/m.exec(this.stdout)?.[1];
  }

  running(): string {
    return processesInGroup(this.pgid).join('\n');
  }

  /** Ctrl-C, and the wait until every process of the group is gone (SIGKILL after 15 s). */
  async interrupt(): Promise<void> {
    if (processesInGroup(this.pgid).length === 0) return;
    process.kill(-this.pgid, 'SIGINT');
    await this.exited;
    const deadline = Date.now() + 15_000;
    while (processesInGroup(this.pgid).length > 0 && Date.now() < deadline) await sleep(200);
  }

  /** A failed run must not leave a whole system behind. */
  kill(): void {
    if (processesInGroup(this.pgid).length > 0) process.kill(-this.pgid, 'SIGKILL');
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
  // What the first start registered, for the second to be compared with.
  let first: { offering: Offering; templates: Template[] } | undefined;

  afterAll(async () => {
    const admin = new Client({ connectionString: testEnv.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    rmSync(join(ROOT, '.cache', 'nats', namespace), { recursive: true, force: true });
    const marker = createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
    rmSync(join(ROOT, '.cache', 'demo-password', marker), { force: true });
  });

  /** Signs in to the portal's login as a person would; the status. */
  async function signIn(base: string, password: string): Promise<number> {
    const response = await fetch(`${base}/api-auth/password/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    return response.status;
  }
  let demoPassword = '';

  async function startOn(extra: Record<string, string> = {}) {
    const port = await freePort();
    const natsPort = await freePort();
    const start = new NpmStart({
      DATABASE_URL: databaseUrl,
      // No NATS_URL: npm start runs a nats-server of its own, with the project's permissions.
      NATS_URL: '',
      NATS_LISTEN: `127.0.0.1:${natsPort}`,
      NATS_NAMESPACE: namespace,
      GATEWAY_PORT: String(port),
      VCSIM_LISTEN: '127.0.0.1:0',
      VCSIM_FRONT_LISTEN: '127.0.0.1:0',
      ...extra,
    });
    return { start, base: `http://127.0.0.1:${port}`, natsPort };
  }

  async function healthOf(base: string, start: NpmStart) {
    let health: { status: string; services: Record<string, { status: string }> } | undefined;
    const deadline = Date.now() + 150_000;
    while (!health && Date.now() < deadline) {
      await sleep(500);
      const response = await fetch(`${base}/health`).catch(() => undefined);
      if (response?.ok) health = (await response.json()) as typeof health;
    }
    if (!health) throw new Error(`the gateway never answered healthy:\n${start.output.slice(-3000)}`);
    return health;
  }

  function api(base: string, token: string) {
    return async <T>(path: string): Promise<T> => {
      const response = await fetch(`${base}${path}`, { headers: { Authorization: `Token ${token}` } });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
  }

  /** The demo offering and its templates once `ready` holds for them (the demo registers after health). */
  async function demoOf(
    get: ReturnType<typeof api>,
    start: NpmStart,
    ready: (templates: Template[]) => boolean,
  ): Promise<{ offering: Offering; templates: Template[] }> {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const listed = await get<Offering[]>('/api/marketplace-public-offerings/?type=VMware.VirtualMachine');
      const offering = listed.find((o) => o.name === DEMO_OFFERING);
      if (offering) {
        const templates = await get<Template[]>(`/api/vmware-templates/?offering_uuid=${offering.uuid}`);
        if (ready(templates)) return { offering, templates };
      }
      await sleep(500);
    }
    throw new Error(`the demo offering was not ready within 90 s:\n${start.output.slice(-3000)}`);
  }

  it('brings up its own authenticated NATS, vcsim with its front, the four apps and the demo offering with its templates, and Ctrl-C stops every process it started', async () => {
    const { start, base, natsPort } = await startOn();
    try {
      const health = await healthOf(base, start);
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
      const running = start.running();
      expect(running).toMatch(new RegExp(`nats-server -c \\S*\\.cache/nats/${namespace}/nats-server\\.conf`));
      expect(running).toMatch(/\.cache\/vcsim\/bin\/vcsim/);
      expect(running).toMatch(/scripts\/vcsim\/front\.ts/);
      for (const app of ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'])
        expect(running).toContain(`dist/apps/${app}/`);

      // The demo, as a customer would see it with the token npm start printed.
      const get = api(base, start.token);
      first = await demoOf(get, start, (templates) => templates.length >= 2);
      expect(first.offering).toMatchObject({ state: 'Active', customer_name: 'Demo Provider' });
      expect(first.offering.plans).toEqual([
        expect.objectContaining({
          name: 'Default',
          prices: { cpu: '5.0000', ram: '2.5000', disk: '0.1000' },
        }),
      ]);
      expect(first.templates).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'Ubuntu-24.04',
            os: 'Ubuntu',
            os_version: '24.04',
            guest_os: 'UBUNTU_64',
          }),
          expect.objectContaining({
            name: 'WindowsServer-2022',
            os: 'WindowsServer',
            os_version: '2022',
            guest_os: expect.stringMatching(/^WINDOWS_/) as unknown,
          }),
        ]),
      );
      const [customer] = (await get<Json[]>('/api/customers/?name=Demo%20Customer')).filter(
        (c) => c.name === 'Demo Customer',
      );
      const projects = await get<Json[]>(`/api/projects/?customer_uuid=${String(customer?.uuid)}`);
      expect(projects.map((p) => p.name)).toEqual(['Demo Project']);

      // A way in for a person: the first start on a database prints admin's new password once.
      const deadline = Date.now() + 60_000;
      while (start.password() === undefined && Date.now() < deadline) await sleep(200);
      demoPassword = start.password() ?? '';
      expect(start.output).toContain(`sign in at ${base}/ as admin; its password is the next line`);
      expect(await signIn(base, demoPassword)).toBe(200);

      await start.interrupt();
      expect(processesInGroup(start.pgid)).toEqual([]);
      expect(start.output).toContain('[start] stopped');
    } finally {
      start.kill();
    }
  });

  it('registers nothing twice when started again on the same database, and synchronises the new vcsim', async () => {
    if (!first) throw new Error('the first start did not register the demo');
    const { start, base } = await startOn();
    try {
      await healthOf(base, start);
      const get = api(base, start.token);
      const before = new Set(first.templates.map((t) => t.backend_id));
      // vcsim forgets its library when it stops: the new start's templates carry new item ids.
      const again = await demoOf(
        get,
        start,
        (templates) => templates.length >= 2 && templates.every((t) => !before.has(t.backend_id)),
      );

      const named = async (path: string, name: string) =>
        (
          await get<Json[]>(`${path}${path.includes('?') ? '&' : '?'}name=${encodeURIComponent(name)}`)
        ).filter((o) => o.name === name).length;
      expect(await named('/api/customers/', 'Demo Provider')).toBe(1);
      expect(await named('/api/customers/', 'Demo Customer')).toBe(1);
      expect(await named('/api/projects/', 'Demo Project')).toBe(1);
      expect(
        await named('/api/marketplace-provider-offerings/?type=VMware.VirtualMachine', DEMO_OFFERING),
      ).toBe(1);
      expect(again.offering.uuid).toBe(first.offering.uuid);
      expect(await get<Json[]>(`/api/marketplace-plans/?offering_uuid=${again.offering.uuid}`)).toHaveLength(
        1,
      );
      expect(again.templates.map((t) => t.name).sort()).toEqual(first.templates.map((t) => t.name).sort());
      // The password is printed once: the second start says where it was, and it still signs in.
      const said = Date.now() + 60_000;
      while (
        !start.output.includes('with the password printed at the start that set it') &&
        Date.now() < said
      )
        await sleep(200);
      expect(start.output).toContain(
        `sign in at ${base}/ as admin with the password printed at the start that set it`,
      );
      expect(start.password()).toBeUndefined();
      expect(await signIn(base, demoPassword)).toBe(200);

      await start.interrupt();
      expect(processesInGroup(start.pgid)).toEqual([]);
    } finally {
      start.kill();
    }
  });

  it('with START_VCSIM=0 runs the apps without vcsim, its front or the demo', async () => {
    const { start, base } = await startOn({ START_VCSIM: '0' });
    try {
      expect((await healthOf(base, start)).status).toBe('ok');
      const running = start.running();
      expect(running).toContain('dist/apps/vsphere-adapter/');
      expect(running).not.toMatch(/vcsim/);
      await start.interrupt();
      expect(processesInGroup(start.pgid)).toEqual([]);
    } finally {
      start.kill();
    }
  });
});
