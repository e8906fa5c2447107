import { ApiSession } from './api-session';
import { AppProcess } from './app-process';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase } from './test-database';
import { testEnv } from './test-env';
import { createTestNats, type TestNats } from './test-nats';
import { callRest, createStaffToken, insertToken, runSql, successBody, type Answer } from './rest-client';

export type { Answer };

export interface ApiSystemOptions {
  /** The vSphere adapter and the sync scheduler too: the gateway's /health is healthy only with them. */
  allApps?: boolean;
  gatewayEnv?: Record<string, string>;
  /** The NATS servers the apps and the test use (a cluster's nodes); the machine's NATS by default. */
  natsUrls?: string[];
  /** Instances of each app: every gateway on a port of its own. One by default. */
  instances?: number;
  /** Extra variables of every app (NATS_STREAM_REPLICAS, say). */
  appEnv?: Record<string, string>;
}

/** A gateway instance and where it listens. */
export interface GatewayInstance {
  process: AppProcess;
  port: number;
  base: string;
}

/**
 * The order service and the gateway as processes, on a database and NATS namespace of the suite's
 * own, with a staff user made the way an operator makes the first one (`create-staff`).
 */
export class ApiSystem {
  orderService!: AppProcess;
  gateway!: AppProcess;
  /** The adapter and the scheduler when asked for, and every instance of an app after its first. */
  readonly others: AppProcess[] = [];
  /** The gateways after the first (`gateway`, on `port`), when more than one instance was asked for. */
  readonly moreGateways: GatewayInstance[] = [];
  staffToken = '';
  /** Extra variables of every gateway this system starts (SSE settings, say). */
  gatewayEnv: Record<string, string> = {};
  base = '';
  port = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly nats: TestNats,
    private readonly natsUrls: string[],
    private readonly appEnv: Record<string, string>,
  ) {}

  static async start(label: string, options: ApiSystemOptions = {}): Promise<ApiSystem> {
    const natsUrls = options.natsUrls ?? [testEnv.natsUrl];
    const system = new ApiSystem(
      await createTestDatabase(label),
      await createTestNats(label, natsUrls),
      natsUrls,
      options.appEnv ?? {},
    );
    system.gatewayEnv = options.gatewayEnv ?? {};
    system.port = await freePort();
    system.base = `http://127.0.0.1:${system.port}`;
    system.staffToken = await system.createStaff('root');
    system.orderService = new AppProcess('order-service', system.env);
    system.gateway = system.newGateway(system.port);
    const instances = options.instances ?? 1;
    const services = options.allApps ? (['vsphere-adapter', 'sync-scheduler'] as const) : [];
    for (const app of services) system.others.push(new AppProcess(app, system.env));
    for (let extra = 1; extra < instances; extra++) {
      const port = await freePort();
      system.moreGateways.push({ process: system.newGateway(port), port, base: `http://127.0.0.1:${port}` });
      for (const app of ['order-service', ...services] as const)
        system.others.push(new AppProcess(app, system.env));
    }
    await Promise.all([
      system.orderService.start(),
      ...[system.gateway, ...system.moreGateways.map((g) => g.process)].map((g) =>
        g.start('gateway listening'),
      ),
      ...system.others.map((app) => app.start()),
    ]);
    return system;
  }

  get env(): Record<string, string> {
    return {
      DATABASE_URL: this.db.url,
      NATS_URL: this.natsUrls.join(','),
      NATS_NAMESPACE: this.nats.topology.namespace,
      ...this.appEnv,
    };
  }

  /** Every gateway instance, the first one first. */
  get gateways(): GatewayInstance[] {
    return [{ process: this.gateway, port: this.port, base: this.base }, ...this.moreGateways];
  }

  private newGateway(port: number): AppProcess {
    return new AppProcess('gateway', { ...this.env, ...this.gatewayEnv, GATEWAY_PORT: String(port) });
  }

  /** `create-staff <username>` as an operator runs it; returns the token it prints last. */
  async createStaff(username: string): Promise<string> {
    return createStaffToken(username, this.env);
  }

  async restartOrderService(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.orderService.stop();
    this.orderService = new AppProcess('order-service', { ...this.env, ...extraEnv });
    await this.orderService.start();
  }

  async restartGateway(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.gateway.stop();
    Object.assign(this.gatewayEnv, extraEnv);
    this.gateway = this.newGateway(this.port);
    await this.gateway.start('gateway listening');
  }

  async call<T = unknown>(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    return callRest<T>(`${this.base}${path}`, {
      method,
      token,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  /** The answer's body when it is a success; throws with the answer otherwise. */
  async ok<T = Record<string, unknown>>(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    return successBody(await this.call<T>(token, method, path, body), method, path);
  }

  /** The API as named users see it, starting with `staff` (the user `start` made). */
  async session(): Promise<ApiSession> {
    const api = new ApiSession(this.base, this.db.url);
    api.tokens.staff = this.staffToken;
    api.users.staff = (await api.ok('staff', 'GET', '/api/users/me/')).uuid as string;
    return api;
  }

  /** A new token of an existing user (an hour's lifetime). */
  async createToken(userUuid: string): Promise<string> {
    return insertToken(this.db.url, userUuid);
  }

  async sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.db.url, text, values);
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.gateway?.stop(),
      ...this.moreGateways.map((g) => g.process.stop()),
      this.orderService?.stop(),
      ...this.others.map((app) => app.stop()),
    ]);
    await this.nats.close();
    await this.db.drop();
  }
}
