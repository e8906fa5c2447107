import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import { topology, type Topology } from '@app/contracts';
import { connectVim, type VimConnection } from '@app/vim25';
import { ApiSession } from '../../support/api-session';
import { AppProcess, type AppName } from '../../support/app-process';
import { freePort } from '../../support/free-port';
import { NatsCluster } from '../../support/nats-cluster';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import {
  registerVcsimOffering,
  startVcsimWithTemplates,
  type RegisteredOffering,
  type VcsimWithTemplates,
} from '../../support/vcsim-offering';
import type { AuditedSystem } from './order-audit';
import { APPS, READY } from './fault-system';

export interface ClusterSystemOptions {
  /** Instances of every app. */
  instances: number;
  /** Replicas of every stream and durable consumer (NATS_STREAM_REPLICAS). */
  replicas: number;
  /** JetStream ack wait: how soon a message held by a killed process is redelivered. */
  ackWaitMs: number;
  /** How long a gateway waits for a service before answering 503. */
  requestTimeoutMs: number;
}

/**
 * The system scaled out: a three-node NATS cluster of the suite's own (killed and restarted by pid),
 * one database on the machine's Postgres, vcsim behind the vCenter 8 front with a registered,
 * synchronised offering, and `instances` processes of every app. Each instance lists the NATS nodes
 * in another order, so the instances of one app connect to different nodes.
 */
export class ClusterSystem implements AuditedSystem {
  readonly nats = new NatsCluster();
  readonly topology: Topology = topology('cluster');
  readonly instances = new Map<AppName, AppProcess[]>();
  /** Every process that ever ran, killed ones included, for their logs. */
  readonly history: AppProcess[] = [];
  readonly gateways: string[] = [];
  observer?: NatsConnection;
  db?: TestDatabase;
  vcsim?: VcsimWithTemplates;
  api?: ApiSession;
  market?: RegisteredOffering;
  private readonly gatewayPorts: number[] = [];
  private readonly credentialsKey = `k1:${randomBytes(32).toString('base64')}`;

  constructor(readonly options: ClusterSystemOptions) {}

  get databaseUrl(): string {
    return this.db!.url;
  }

  async start(): Promise<void> {
    const [, vcsim, db] = await Promise.all([
      this.nats.start(),
      startVcsimWithTemplates(`pw-${randomBytes(12).toString('hex')}`),
      createTestDatabase('cluster'),
    ]);
    this.vcsim = vcsim;
    this.db = db;
    for (let index = 0; index < this.options.instances; index++) {
      this.gatewayPorts.push(await freePort());
      this.gateways.push(`http://127.0.0.1:${this.gatewayPorts[index]}`);
    }
    const starts = APPS.flatMap((app) =>
      Array.from({ length: this.options.instances }, (_, index) => this.startInstance(app, index)),
    );
    await Promise.all(starts);
    this.observer = await connect({
      servers: this.nats.urls,
      name: 'cluster-observer',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    this.api = new ApiSession(this.gateways[0], db.url);
    await this.api.bootstrapStaff('staff', this.envFor('order-service', 0));
    this.market = await registerVcsimOffering(this.api, vcsim);
  }

  instance(app: AppName, index: number): AppProcess {
    const process = this.instances.get(app)?.[index];
    if (!process) throw new Error(`${app} #${index} was never started`);
    return process;
  }

  envFor(app: AppName, index: number): Record<string, string> {
    // Instance i lists the nodes from node i on: its first connection goes to another node.
    const urls = this.nats.urls;
    const rotated = [...urls.slice(index % urls.length), ...urls.slice(0, index % urls.length)];
    const env: Record<string, string> = {
      NATS_URL: rotated.join(','),
      NATS_NAMESPACE: this.topology.namespace,
      NATS_STREAM_REPLICAS: String(this.options.replicas),
      LOG_LEVEL: 'info',
    };
    if (app !== 'gateway') Object.assign(env, { DATABASE_URL: this.databaseUrl, OUTBOX_SWEEP_MS: '500' });
    if (app === 'order-service' || app === 'vsphere-adapter')
      env.CONSUMER_ACK_WAIT_MS = String(this.options.ackWaitMs);
    if (app === 'vsphere-adapter')
      Object.assign(env, { CREDENTIALS_KEYS: this.credentialsKey, VSPHERE_SYNC_SWEEP_MS: '500' });
    if (app === 'sync-scheduler') env.SYNC_TICK_MS = '1000';
    if (app === 'gateway')
      Object.assign(env, {
        GATEWAY_PORT: String(this.gatewayPorts[index]),
        REQUEST_TIMEOUT_MS: String(this.options.requestTimeoutMs),
      });
    return env;
  }

  async startInstance(app: AppName, index: number): Promise<AppProcess> {
    const process = new AppProcess(app, this.envFor(app, index));
    const list = this.instances.get(app) ?? [];
    list[index] = process;
    this.instances.set(app, list);
    this.history.push(process);
    await process.start(READY[app], 60_000);
    return process;
  }

  /** SIGKILLs one instance (a crash) and starts it again with the same settings; resolves once it serves. */
  async crashAndRestart(app: AppName, index: number): Promise<{ killedAt: number; servingAt: number }> {
    await this.instance(app, index).stop('SIGKILL');
    const killedAt = Date.now();
    await this.startInstance(app, index);
    return { killedAt, servingAt: Date.now() };
  }

  /** The scheduler instance holding the lead: the one whose lease log says so, among those running. */
  schedulerLeader(): number {
    const list = this.instances.get('sync-scheduler') ?? [];
    const leader = list.findIndex(
      (process) =>
        process.running && process.lines.some((line) => line.msg === 'this instance leads the schedule'),
    );
    if (leader < 0) throw new Error('no scheduler instance leads');
    return leader;
  }

  /** How many Postgres sessions hold the schedulers' leader lock (the lease of leader-lease.ts). */
  async schedulerLeaseHolders(): Promise<number> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint`,
        [`sync-scheduler:${this.topology.namespace}`],
      );
      return rows[0].n;
    } finally {
      await client.end();
    }
  }

  /** The nodes by how many of the system's streams (the feed too) they lead, most first. */
  async streamLeaders(): Promise<{ node: string; streams: number }[]> {
    const jsm = await jetstreamManager(this.observer!);
    const counts = new Map<string, number>(this.nats.nodes.map((node) => [node.name, 0]));
    for (const stream of [...Object.values(this.topology.streams), this.topology.feed]) {
      const leader = (await jsm.streams.info(stream.name)).cluster?.leader;
      if (leader) counts.set(leader, (counts.get(leader) ?? 0) + 1);
    }
    return [...counts].map(([node, streams]) => ({ node, streams })).sort((a, b) => b.streams - a.streams);
  }

  /** The replicas each of the system's streams has, by stream name. */
  async streamReplicas(): Promise<Record<string, number>> {
    const jsm = await jetstreamManager(this.observer!);
    const replicas: Record<string, number> = {};
    for (const stream of [...Object.values(this.topology.streams), this.topology.feed])
      replicas[stream.name] = (await jsm.streams.info(stream.name)).config.num_replicas;
    return replicas;
  }

  /** A SOAP session of the test's own to vcsim, to count VMs where they live. */
  vim(): Promise<VimConnection> {
    const { sim } = this.vcsim!;
    return connectVim({ url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password });
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.history.map((process) => process.stop('SIGKILL')));
    await this.observer?.close().catch(() => undefined);
    await this.nats.destroy();
    await this.vcsim?.library.close();
    await this.vcsim?.sim.stop();
    await this.db?.drop();
  }
}
