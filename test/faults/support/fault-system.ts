import { randomBytes, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { TERMINAL_ORDER_STATES, topology, type Topology } from '@app/contracts';
import { connectVim, type VimConnection } from '@app/vim25';
import { vmCountsByOrder } from '../../../apps/vsphere-adapter/test/support/order-fixture';
import { ApiSession } from '../../support/api-session';
import { AppProcess, type AppName } from '../../support/app-process';
import { freePort } from '../../support/free-port';
import { NatsServerProcess } from '../../support/nats-server-process';
import type { SubmitOrder } from '../../support/order-load';
import { PostgresCluster } from '../../support/postgres-cluster';
import { createStaffToken } from '../../support/rest-client';
import {
  registerVcsimOffering,
  startVcsimWithTemplates,
  type RegisteredOffering,
  type VcsimWithTemplates,
} from '../../support/vcsim-offering';
import type { AuditedSystem } from './order-audit';
import { until } from './wait';

export const APPS: AppName[] = ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'];
/** The log line each app writes once it serves. */
export const READY: Record<AppName, string> = {
  'order-service': 'order-service started',
  'vsphere-adapter': 'vsphere-adapter started',
  'sync-scheduler': 'sync-scheduler started',
  gateway: 'gateway listening',
};
export const TERMINAL_STATES: readonly string[] = TERMINAL_ORDER_STATES;

export interface FaultSystemOptions {
  /** How long the gateway waits for a service before answering 503. */
  requestTimeoutMs: number;
  /** JetStream ack wait: how soon a message held by a killed process is redelivered. */
  ackWaitMs: number;
  /** How long the test's own order requests wait for the gateway's answer. */
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
  options: {
    token?: string;
    method?: string;
    body?: unknown;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpAnswer> {
  const started = Date.now();
  try {
    const headers: Record<string, string> = {
      ...options.headers,
      ...(options.token && { Authorization: `Token ${options.token}` }),
    };
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

/** The name a fault client's order carries: one per client request, so a second order for it shows. */
export const FAULT_ORDER_PREFIX = 'fault-';
/** How long a fault client keeps retrying a create nobody answered, with its Idempotency-Key. */
const RETRY_UNANSWERED_MS = 15_000;
const RETRY_EVERY_MS = 500;

/** No answer, the gateway's 503 (its service did not answer), or the 409 of a key still in flight. */
function unanswered(answer: HttpAnswer): boolean {
  return answer.status === 0 || answer.status === 503 || answer.status === 409;
}

/**
 * The whole system under faults: a nats-server and a Postgres cluster of the suite's own (killed
 * and restarted by the suite, never the machine's), vcsim behind the vCenter 8 front registered as
 * an offering through the REST API, the four apps as processes, and the test's own NATS link
 * (reconnecting forever, so it rides through the outages it causes). Orders take the path users
 * take: `POST /api/marketplace-orders/` through the gateway, placement, review, the adapter's work
 * on vcsim and its answer.
 */
export class FaultSystem implements AuditedSystem {
  readonly nats = new NatsServerProcess();
  readonly postgres = new PostgresCluster();
  readonly apps = new Map<AppName, AppProcess>();
  /** Every process that ever ran, killed ones included, for their logs. */
  readonly history: AppProcess[] = [];
  readonly topology: Topology = topology('faults');
  readonly databaseName = 'vmm_faults';
  databaseUrl = '';
  gatewayUrl = '';
  /** A staff token, for the suites' probes of REST. */
  token = '';
  api?: ApiSession;
  market?: RegisteredOffering;
  vcsim?: VcsimWithTemplates;
  observer?: NatsConnection;
  private vimConnection?: VimConnection;
  private gatewayPort = 0;
  private sent = 0;
  private readonly credentialsKey = `k1:${randomBytes(32).toString('base64')}`;

  constructor(readonly options: FaultSystemOptions) {}

  async start(): Promise<void> {
    const [, , vcsim] = await Promise.all([
      this.nats.start(),
      this.postgres.start(),
      startVcsimWithTemplates(`pw-${randomBytes(12).toString('hex')}`),
    ]);
    this.vcsim = vcsim;
    this.databaseUrl = await this.postgres.createDatabase(this.databaseName);
    this.gatewayPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${this.gatewayPort}`;
    this.api = new ApiSession(this.gatewayUrl, this.databaseUrl);
    // create-staff migrates the marketplace schema before the apps start.
    const staffToken = await createStaffToken('staff', this.envFor('order-service'));
    await Promise.all(APPS.map((app) => this.startApp(app)));
    await this.api.adopt('staff', staffToken);
    this.token = this.api.tokens.staff;
    this.observer = await connect({
      servers: this.nats.url,
      name: 'fault-observer',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    this.market = await registerVcsimOffering(this.api, vcsim);
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
    if (app === 'vsphere-adapter')
      Object.assign(env, { CREDENTIALS_KEYS: this.credentialsKey, VSPHERE_SYNC_SWEEP_MS: '500' });
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

  /** The body of a VM order as a user's client sends it, named `name`. */
  orderBody(name: string): Record<string, unknown> {
    const { offering, project, templates } = this.market!;
    return {
      offering: offering.uuid,
      project: project.uuid,
      plan: offering.plans[0].uuid,
      attributes: { name, template: templates[0].uuid },
      limits: { cpu: 1, ram: 1024 },
    };
  }

  /** `POST /api/marketplace-orders/` as the customer's owner, without waiting beyond the client's timeout. */
  placeOrder(name: string, idempotencyKey?: string): Promise<HttpAnswer> {
    return httpCall(`${this.gatewayUrl}/api/marketplace-orders/`, {
      method: 'POST',
      token: this.api!.tokens.member,
      body: this.orderBody(name),
      timeoutMs: this.options.clientTimeoutMs,
      headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': `"${idempotencyKey}"` },
    });
  }

  /**
   * One client request for a VM order, with a name and an Idempotency-Key of its own. A create
   * nobody answered leaves the client not knowing whether the order exists, so it retries with the
   * same key, as a client does, for a while; still unanswered, the request failed.
   */
  submitOrder: SubmitOrder = async () => {
    const name = `${FAULT_ORDER_PREFIX}${this.sent++}`;
    const key = randomUUID();
    const givingUpAt = Date.now() + RETRY_UNANSWERED_MS;
    let answer = await this.placeOrder(name, key);
    while (unanswered(answer) && Date.now() < givingUpAt) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
      answer = await this.placeOrder(name, key);
    }
    const detail = `${answer.status} ${answer.error ?? JSON.stringify(answer.body)?.slice(0, 200)}`;
    if (unanswered(answer)) throw new Error(detail);
    const uuid = (answer.body as { uuid?: string } | undefined)?.uuid;
    return answer.status === 201 && uuid ? { accepted: true, uuid } : { accepted: false, detail };
  };

  /** How many VMs in vcsim carry each order's mark: the effect, counted where it lives. */
  async vmCounts(): Promise<Map<string, number>> {
    const { sim } = this.vcsim!;
    this.vimConnection ??= await connectVim({
      url: sim.url,
      caPem: sim.caPem,
      username: sim.username,
      password: sim.password,
    });
    return vmCountsByOrder(this.vimConnection);
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
    await this.observer?.close().catch(() => undefined);
    await this.nats.destroy();
    await this.postgres.destroy();
    await this.vcsim?.library.close();
    await this.vcsim?.sim.stop();
  }
}
