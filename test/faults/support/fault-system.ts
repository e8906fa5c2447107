import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { firstValueFrom, timeout } from 'rxjs';
import {
  ORDER_PATTERNS,
  VMWARE_OFFERING_TYPE,
  topology,
  type OfferingView,
  type BackboneOrderView,
  type RequestReply,
  type Topology,
} from '@app/contracts';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { AppProcess, type AppName } from '../../support/app-process';
import { freePort } from '../../support/free-port';
import { NatsServerProcess } from '../../support/nats-server-process';
import type { SubmitOrder } from '../../support/order-load';
import { PostgresCluster } from '../../support/postgres-cluster';
import { until } from './wait';
import { BACKBONE_PROJECT, createBackboneProject } from '../../support/backbone-project';

const ROOT = join(__dirname, '..', '..', '..');
export const APPS: AppName[] = ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'];
/** The log line each app writes once it serves. */
export const READY: Record<AppName, string> = {
  'order-service': 'order-service started',
  'vsphere-adapter': 'vsphere-adapter started',
  'sync-scheduler': 'sync-scheduler started',
  gateway: 'gateway listening',
};
export const TERMINAL_STATES = ['done', 'erred', 'canceled', 'rejected'];

export interface FaultSystemOptions {
  /** How long the gateway waits for a service before answering 503. */
  requestTimeoutMs: number;
  /** JetStream ack wait: how soon a message held by a killed process is redelivered. */
  ackWaitMs: number;
  /** How long the test's own order requests wait for an answer. */
  clientTimeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  ms: number;
  /** Set when no HTTP answer came at all (connection refused, timeout). */
  error?: string;
}

/** One HTTP call; a refused connection or a hang is an answer too (status 0, with the error). */
export async function httpCall(
  url: string,
  options: { token?: string; method?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const started = Date.now();
  try {
    const headers: Record<string, string> = options.token ? { Authorization: `Token ${options.token}` } : {};
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, ms: Date.now() - started };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { status: 0, body: undefined, ms: Date.now() - started, error: reason };
  }
}

/**
 * The whole system under faults: a nats-server and a Postgres cluster of the suite's own (killed
 * and restarted by the suite, never the machine's), the four apps as processes, a staff token for
 * REST, an offering for orders, and the test's own NATS links (reconnecting forever, so they ride
 * through the outages they cause).
 */
export class FaultSystem {
  readonly nats = new NatsServerProcess();
  readonly postgres = new PostgresCluster();
  readonly apps = new Map<AppName, AppProcess>();
  /** Every process that ever ran, killed ones included, for their logs. */
  readonly history: AppProcess[] = [];
  readonly topology: Topology = topology('faults');
  readonly databaseName = 'vmm_faults';
  databaseUrl = '';
  gatewayUrl = '';
  token = '';
  offering?: OfferingView;
  observer?: NatsConnection;
  private requests?: NamespacedNatsClient;
  private gatewayPort = 0;

  constructor(readonly options: FaultSystemOptions) {}

  async start(): Promise<void> {
    await Promise.all([this.nats.start(), this.postgres.start()]);
    this.databaseUrl = await this.postgres.createDatabase(this.databaseName);
    this.gatewayPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${this.gatewayPort}`;
    this.token = await this.createStaffToken(); // migrates the marketplace schema first
    await createBackboneProject(this.databaseUrl);
    await Promise.all(APPS.map((app) => this.startApp(app)));
    const reconnectForever = { maxReconnectAttempts: -1, reconnectTimeWait: 250 };
    this.observer = await connect({ servers: this.nats.url, name: 'fault-observer', ...reconnectForever });
    this.requests = new NamespacedNatsClient(
      { servers: [this.nats.url], name: 'fault-load', ...reconnectForever },
      this.topology.namespace,
    );
    await this.requests.connect();
    const offering = await this.request<RequestReply<OfferingView>>(ORDER_PATTERNS.createOffering, {
      name: 'vCenter under faults',
      type: VMWARE_OFFERING_TYPE,
    });
    if (offering.status !== 'ok') throw new Error(`offering refused: ${JSON.stringify(offering)}`);
    this.offering = offering.data;
  }

  app(name: AppName): AppProcess {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} was never started`);
    return app;
  }

  envFor(app: AppName): Record<string, string> {
    const env: Record<string, string> = {
      NATS_URL: this.nats.url,
      NATS_NAMESPACE: this.topology.namespace,
      LOG_LEVEL: 'info',
    };
    if (app === 'order-service' || app === 'vsphere-adapter') {
      Object.assign(env, {
        DATABASE_URL: this.databaseUrl,
        OUTBOX_SWEEP_MS: '1000',
        CONSUMER_ACK_WAIT_MS: String(this.options.ackWaitMs),
      });
    }
    if (app === 'gateway') {
      Object.assign(env, {
        GATEWAY_PORT: String(this.gatewayPort),
        REQUEST_TIMEOUT_MS: String(this.options.requestTimeoutMs),
      });
    }
    return env;
  }

  async startApp(name: AppName): Promise<AppProcess> {
    const app = new AppProcess(name, this.envFor(name));
    this.apps.set(name, app);
    this.history.push(app);
    await app.start(READY[name], 30_000);
    return app;
  }

  /**
   * Brings the system back to healthy when an earlier fault left it broken (that fault's test has
   * failed already), so each fault is judged on its own. Returns what it had to do, or ''.
   */
  async reviveIfNeeded(): Promise<string> {
    const notes: string[] = [];
    for (const [name, app] of this.apps)
      if (!app.running) {
        notes.push(`started ${name} again (${app.exitStatus})`);
        await this.startApp(name);
      }
    if ((await until(() => this.healthy(), 15_000)) === undefined) {
      notes.push('restarted every app: /health was not ok');
      for (const name of APPS) {
        await this.app(name).stop('SIGKILL');
        await this.startApp(name);
      }
    }
    return notes.join('; ');
  }

  /** The apps that are not running, with how each ended. */
  deadApps(): string[] {
    return [...this.apps.values()]
      .filter((app) => !app.running)
      .map((app) => `${app.app} (${app.exitStatus ?? 'not started'})\n${app.tail(8)}`);
  }

  /** One order over NATS request-reply, as the gateway would send it. */
  submitOrder: SubmitOrder = async () => {
    const reply = await this.request<RequestReply<BackboneOrderView>>(ORDER_PATTERNS.createOrder, {
      offering_uuid: this.offering!.uuid,
      project_uuid: BACKBONE_PROJECT,
      attributes: { name: 'vm-under-faults' },
      limits: { cpu: 1, ram: 1024 },
    });
    return reply.status === 'ok'
      ? { accepted: true, uuid: reply.data.uuid }
      : { accepted: false, detail: JSON.stringify(reply) };
  };

  async request<T>(pattern: string, payload: unknown): Promise<T> {
    return firstValueFrom(
      this.requests!.send<T, unknown>(pattern, payload).pipe(timeout(this.options.clientTimeoutMs)),
    );
  }

  /** An HTTP call to the gateway; a refused connection or a hang is an answer too (status 0). */
  async http(path: string, withToken = true, timeoutMs = 30_000): Promise<HttpAnswer> {
    return httpCall(`${this.gatewayUrl}${path}`, { token: withToken ? this.token : undefined, timeoutMs });
  }

  /** `/health` is 200 and every service reports ok. */
  async healthy(): Promise<boolean> {
    const answer = await this.http('/health', false, 10_000);
    if (answer.status !== 200) return false;
    const body = answer.body as { status?: string; services?: Record<string, { status?: string }> };
    return body.status === 'ok' && Object.values(body.services ?? {}).every((s) => s.status === 'ok');
  }

  /** Every log line of every process that ran (killed ones too) that names `needle`. */
  logsAbout(needle: string, limit = 15): string {
    const lines = this.history.flatMap((process) =>
      process.lines
        .filter((line) => JSON.stringify(line).includes(needle))
        .map((line) => `${process.app}#${process.pid}: ${JSON.stringify(line)}`),
    );
    return lines.slice(-limit).join('\n');
  }

  /** Delivery state of the two durable consumers: what waits, what is held unacknowledged, what was redelivered. */
  async consumerStates(): Promise<string> {
    const jsm = await jetstreamManager(this.observer!);
    const states: string[] = [];
    for (const durable of Object.values(this.topology.consumers)) {
      try {
        const info = await jsm.consumers.info(durable.stream, durable.durable);
        states.push(
          `${durable.durable}: pending ${info.num_pending}, ack pending ${info.num_ack_pending}, ` +
            `redelivered ${info.num_redelivered}, delivered ${info.delivered.consumer_seq}`,
        );
      } catch (error) {
        states.push(`${durable.durable}: ${String(error)}`);
      }
    }
    return states.join('; ');
  }

  /**
   * What the system looks like, for a failure message: /health, the orders by state, unpublished
   * outbox rows, the durable consumers, and the log lines about two unfinished orders.
   */
  async describeState(orders: string[]): Promise<string> {
    const health = await this.http('/health', false, 10_000);
    const states = await this.orderStates(orders).catch(() => new Map<string, string>());
    const byState = new Map<string, number>();
    for (const uuid of orders) {
      const state = states.get(uuid) ?? 'no row';
      byState.set(state, (byState.get(state) ?? 0) + 1);
    }
    const outbox = await this.postgres
      .query<{ schema: string; n: number }>(
        `SELECT 'marketplace' AS schema, count(*)::int AS n FROM marketplace.outbox WHERE published_at IS NULL
         UNION ALL SELECT 'vsphere', count(*)::int FROM vsphere.outbox WHERE published_at IS NULL`,
        [],
        this.databaseName,
      )
      .then((rows) => rows.map((row) => `${row.schema} ${row.n}`).join(', '))
      .catch((error: unknown) => String(error));
    const unfinished = orders.filter((uuid) => !TERMINAL_STATES.includes(states.get(uuid) ?? '')).slice(0, 2);
    return [
      `health ${health.status} ${health.error ?? JSON.stringify(health.body)}`,
      `orders by state ${JSON.stringify(Object.fromEntries(byState))}`,
      `unpublished outbox rows: ${outbox}`,
      `consumers: ${await this.consumerStates().catch((error: unknown) => String(error))}`,
      ...unfinished.map((uuid) => `logs about ${uuid}:\n${this.logsAbout(uuid)}`),
    ].join('\n');
  }

  /** Order states by uuid for the given uuids, read from the order service's schema. */
  async orderStates(uuids: string[]): Promise<Map<string, string>> {
    const rows = await this.postgres.query<{ uuid: string; state: string }>(
      'SELECT uuid, state FROM marketplace.orders WHERE uuid = ANY($1::uuid[])',
      [uuids],
      this.databaseName,
    );
    return new Map(rows.map((row) => [row.uuid, row.state]));
  }

  async terminalOrders(): Promise<Set<string>> {
    const rows = await this.postgres.query<{ uuid: string }>(
      'SELECT uuid FROM marketplace.orders WHERE state = ANY($1)',
      [TERMINAL_STATES],
      this.databaseName,
    );
    return new Set(rows.map((row) => row.uuid));
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.apps.values()].map((app) => app.stop('SIGKILL')));
    await this.requests?.close().catch(() => undefined);
    await this.observer?.close().catch(() => undefined);
    await this.nats.destroy();
    await this.postgres.destroy();
  }

  private async createStaffToken(): Promise<string> {
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), 'faults'],
      { cwd: ROOT, env: { ...process.env, ...this.envFor('order-service') } },
    );
    return stdout.trim().split('\n').pop()!;
  }
}
