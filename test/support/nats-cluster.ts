import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from '@nats-io/transport-node';
import { freePort } from './free-port';
import { acceptsConnections, ServerChild } from './server-child';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
const NODE_CONFIG = join(__dirname, '..', '..', 'deploy', 'nats', 'cluster-node.conf');

/** One node of the cluster: its ports stay the same across restarts, and so does its store. */
export class NatsClusterNode {
  private readonly server: ServerChild;

  constructor(
    readonly name: string,
    readonly clientPort: number,
    readonly clusterPort: number,
    private readonly store: string,
    private readonly routes: string[],
    private readonly options: NatsClusterOptions = {},
  ) {
    this.server = new ServerChild(`nats-server ${name}`);
  }

  get url(): string {
    return `nats://127.0.0.1:${this.clientPort}`;
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

  /** Starts the node with the repo's cluster configuration; resolves once it accepts clients. */
  async start(timeoutMs = 15_000): Promise<void> {
    const env = {
      ...process.env,
      ...this.options.env,
      NATS_SERVER_NAME: this.name,
      NATS_LISTEN: `127.0.0.1:${this.clientPort}`,
      NATS_STORE_DIR: this.store,
      NATS_CLUSTER_LISTEN: `127.0.0.1:${this.clusterPort}`,
      NATS_ROUTE_A: this.routes[0],
      NATS_ROUTE_B: this.routes[1],
    };
    const config = this.options.config ?? NODE_CONFIG;
    await this.server.start(
      NATS_SERVER,
      ['-c', config],
      { env },
      () => acceptsConnections(this.clientPort),
      timeoutMs,
    );
  }

  /** SIGTERM by default; SIGKILL is a node lost without warning. Resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.server.stop(signal);
  }
}

export interface NatsClusterOptions {
  /** The nodes' configuration file: `deploy/nats/cluster-node.conf` unless said otherwise. */
  config?: string;
  /** Variables added to every node's environment (the apps' public nkeys for `cluster-server.conf`). */
  env?: Record<string, string>;
  /**
   * How `waitForMetaLeader` connects where the nodes require credentials (an app's options from
   * `natsConnectionOptions`: its nkey and inbox prefix); the servers are the cluster's.
   */
  connection?: ConnectionOptions;
}

/**
 * A three-node nats-server cluster with JetStream, of the suite's own: each node on 127.0.0.1 with
 * a client and a cluster port found free, its store in a temp folder kept across a node's restart
 * (as a real node's disk is), started from `deploy/nats/cluster-node.conf`. Stopped by pid; the
 * machine's NATS on 4222 is never touched.
 */
export class NatsCluster {
  readonly folder = mkdtempSync(join(tmpdir(), 'vmm-nats-cluster-'));
  readonly nodes: NatsClusterNode[] = [];

  constructor(private readonly options: NatsClusterOptions = {}) {}

  /** The client URLs of every node, for NATS_URL (comma-separated). */
  get urls(): string[] {
    return this.nodes.map((node) => node.url);
  }

  async start(size = 3): Promise<void> {
    const ports = await Promise.all(
      Array.from({ length: size }, async () => ({ client: await freePort(), cluster: await freePort() })),
    );
    for (const [index, port] of ports.entries()) {
      const routes = ports
        .filter((_, other) => other !== index)
        .map((p) => `nats-route://127.0.0.1:${p.cluster}`);
      this.nodes.push(
        new NatsClusterNode(
          `n${index + 1}`,
          port.client,
          port.cluster,
          join(this.folder, `n${index + 1}`),
          routes,
          this.options,
        ),
      );
    }
    await Promise.all(this.nodes.map((node) => node.start()));
    await this.waitForMetaLeader();
    // With a configuration of its own (accounts, nkeys) the cluster's users may only create the
    // streams they own, not the probe; those suites' apps wait for placement themselves.
    if (!this.options.config) await this.waitForPeers(size);
  }

  /**
   * Resolves once a stream with `replicas` copies can be placed. A meta leader is elected before
   * every node has joined its group; a replicated stream created in between is refused with "no
   * suitable peers for placement". A throwaway in-memory stream is the exact test of that.
   */
  async waitForPeers(replicas: number, timeoutMs = 20_000): Promise<void> {
    const { connect } = await import('@nats-io/transport-node');
    const { jetstreamManager, StorageType } = await import('@nats-io/jetstream');
    const nc = await connect({ ...this.options.connection, servers: this.urls });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 2_000 });
      const name = `PLACEMENT_PROBE_${process.pid}`;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await jsm.streams.add({
            name,
            subjects: [`placement-probe.${process.pid}`],
            num_replicas: replicas,
            storage: StorageType.Memory,
          });
          await jsm.streams.delete(name);
          return;
        } catch (error) {
          if (Date.now() > deadline)
            throw new Error(
              `the NATS cluster could not place ${replicas} copies in ${timeoutMs} ms: ${String(error)}`,
              { cause: error },
            );
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    } finally {
      await nc.close();
    }
  }

  node(name: string): NatsClusterNode {
    const node = this.nodes.find((candidate) => candidate.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /**
   * Resolves once JetStream's metadata group has a leader, so streams can be created: until then
   * the running nodes do not answer `$JS.API.INFO`. Throws after `timeoutMs`.
   */
  async waitForMetaLeader(timeoutMs = 20_000): Promise<void> {
    const { connect } = await import('@nats-io/transport-node');
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      const nc = await connect({
        ...this.options.connection,
        servers: this.nodes.filter((n) => n.running).map((n) => n.url),
      }).catch((error: unknown) => void (lastError = error));
      if (nc) {
        try {
          await (await jetstreamManager(nc, { timeout: 2_000 })).getAccountInfo();
          return;
        } catch (error) {
          lastError = error;
        } finally {
          await nc.close();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the NATS cluster elected no JetStream leader in ${timeoutMs} ms: ${String(lastError)}`);
  }

  /** Kills every node and removes their stores. */
  async destroy(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop('SIGKILL')));
    rmSync(this.folder, { recursive: true, force: true });
  }
}
