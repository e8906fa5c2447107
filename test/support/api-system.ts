import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { AppProcess } from './app-process';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase } from './test-database';
import { testEnv } from './test-env';
import { createTestNats, type TestNats } from './test-nats';

const ROOT = join(__dirname, '..', '..');

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * The order service and the gateway as processes, on a database and NATS namespace of the suite's
 * own, with a staff user made the way an operator makes the first one (`create-staff`).
 */
export class ApiSystem {
  orderService!: AppProcess;
  gateway!: AppProcess;
  /** The adapter and the scheduler, when asked for: the gateway's /health is healthy only with them. */
  readonly others: AppProcess[] = [];
  staffToken = '';
  base = '';
  port = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly nats: TestNats,
  ) {}

  static async start(label: string, options: { allApps?: boolean } = {}): Promise<ApiSystem> {
    const system = new ApiSystem(await createTestDatabase(label), await createTestNats(label));
    system.port = await freePort();
    system.base = `http://127.0.0.1:${system.port}`;
    system.staffToken = await system.createStaff('root');
    system.orderService = new AppProcess('order-service', system.env);
    system.gateway = system.newGateway();
    if (options.allApps) {
      system.others.push(
        new AppProcess('vsphere-adapter', system.env),
        new AppProcess('sync-scheduler', system.env),
      );
    }
    await Promise.all([
      system.orderService.start(),
      system.gateway.start('gateway listening'),
      ...system.others.map((app) => app.start()),
    ]);
    return system;
  }

  get env(): Record<string, string> {
    return {
      DATABASE_URL: this.db.url,
      NATS_URL: testEnv.natsUrl,
      NATS_NAMESPACE: this.nats.topology.namespace,
    };
  }

  private newGateway(): AppProcess {
    return new AppProcess('gateway', { ...this.env, GATEWAY_PORT: String(this.port) });
  }

  /** `create-staff <username>` as an operator runs it; returns the token it prints last. */
  async createStaff(username: string): Promise<string> {
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), username],
      { cwd: ROOT, env: { ...process.env, ...this.env } },
    );
    return stdout.trim().split('\n').pop() ?? '';
  }

  async restartOrderService(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.orderService.stop();
    this.orderService = new AppProcess('order-service', { ...this.env, ...extraEnv });
    await this.orderService.start();
  }

  async restartGateway(): Promise<void> {
    await this.gateway.stop();
    this.gateway = this.newGateway();
    await this.gateway.start('gateway listening');
  }

  async call<T = unknown>(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const all: Record<string, string> = { ...headers };
    if (token) all.Authorization = `Token ${token}`;
    if (body !== undefined) all['Content-Type'] ??= 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: all,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      headers: response.headers,
    };
  }

  /** The answer's body when it is a success; throws with the answer otherwise. */
  async ok<T = Record<string, unknown>>(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const answer = await this.call<T>(token, method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const pg = new Client({ connectionString: this.db.url });
    await pg.connect();
    try {
      return (await pg.query(text, values)).rows as T[];
    } finally {
      await pg.end();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.gateway?.stop(),
      this.orderService?.stop(),
      ...this.others.map((app) => app.stop()),
    ]);
    await this.nats.close();
    await this.db.drop();
  }
}
