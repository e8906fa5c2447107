import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'yaml';
import { NATS_APPS } from '@app/contracts';

const ROOT = join(__dirname, '..', '..');

function works(command: string, argv: string[]): boolean {
  try {
    execFileSync(command, argv, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `docker compose` (v2 plugin) where it exists, else Debian's `docker-compose`; no engine is needed to validate. */
function compose(args: string[]): string {
  const [command, prefix] = works('docker', ['compose', 'version'])
    ? ['docker', ['compose']]
    : works('docker-compose', ['version'])
      ? ['docker-compose', []]
      : [undefined, []];
  if (!command)
    throw new Error(
      'no Compose tool found: install the docker compose plugin, or `apt-get install docker-compose`',
    );
  try {
    return execFileSync(command, [...prefix, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`${command} ${[...prefix, ...args].join(' ')} failed:\n${stderr}`, { cause: error });
  }
}

describe('docker-compose.yml', () => {
  it('is accepted by Compose', () => {
    expect(() => compose(['config', '-q'])).not.toThrow();
  });

  it('declares Postgres, NATS (with its key step), vcsim and the four services', () => {
    const services = compose(['config', '--services']).trim().split('\n').sort();
    expect(services).toEqual(
      [
        'gateway',
        'nats',
        'nats-keys',
        'order-service',
        'postgres',
        'sync-scheduler',
        'vcsim',
        'vsphere-adapter',
      ].sort(),
    );
  });

  it('runs NATS with the project’s configuration and gives each app its own nkey seed', () => {
    const config = compose(['config']);
    expect(config).toContain('nats-server -c /etc/nats/nats-server.conf');
    expect(config).toContain('deploy/nats/authorization.conf');
    for (const app of NATS_APPS) expect(config).toContain(`NATS_NKEY_SEED_FILE: /keys/${app}.nk`);
  });
});

interface ComposeService {
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: (string | { source?: string; target: string })[];
  ports?: (string | { published?: string | number; target: number })[];
}

describe('docker-compose.cluster.yml', () => {
  const file = ['-f', 'docker-compose.cluster.yml'];
  const apps = ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'];
  const nodes = ['nats-1', 'nats-2', 'nats-3'];
  let services: Record<string, ComposeService>;

  beforeAll(() => {
    services = (parse(compose([...file, 'config'])) as { services: Record<string, ComposeService> }).services;
  });

  it('is accepted by Compose', () => {
    expect(() => compose([...file, 'config', '-q'])).not.toThrow();
  });

  it('declares three NATS nodes, two instances of each app, one Postgres, vcsim and the key step', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['postgres', 'nats-keys', 'vcsim', ...nodes, ...apps.flatMap((app) => [`${app}-1`, `${app}-2`])].sort(),
    );
  });

  it('gives every app instance the three servers, three replicas and its own nkey seed', () => {
    for (const app of apps)
      for (const instance of [`${app}-1`, `${app}-2`])
        expect([instance, services[instance].environment]).toEqual([
          instance,
          expect.objectContaining({
            NATS_URL: 'nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222',
            NATS_STREAM_REPLICAS: '3',
            NATS_NKEY_SEED_FILE: `/keys/${app}.nk`,
          }),
        ]);
  });

  it('publishes the two gateways on 8080 and 8081', () => {
    // `host_ip:published:target` (docker-compose 1.29) or the long form (Compose v2).
    const published = (name: string) =>
      (services[name].ports ?? []).map((port) =>
        typeof port === 'string' ? port.split(':').at(-2) : String(port.published),
      );
    expect(published('gateway-1')).toEqual(['8080']);
    expect(published('gateway-2')).toEqual(['8081']);
  });

  it('runs every node with the cluster configuration, its own name, the other two as routes and its own store', () => {
    const stores = new Set<string>();
    for (const node of nodes) {
      const { entrypoint, environment, volumes } = services[node];
      expect(entrypoint?.join(' ')).toContain('nats-server -c /etc/nats/cluster-server.conf');
      expect(environment?.NATS_SERVER_NAME).toBe(node);
      const routes = [environment?.NATS_ROUTE_A, environment?.NATS_ROUTE_B].sort();
      expect(routes).toEqual(
        nodes.filter((other) => other !== node).map((other) => `nats-route://${other}:6222`),
      );
      // `source:target[:mode]` (docker-compose 1.29) or the long form (Compose v2).
      const mounts = (volumes ?? []).map((volume) =>
        typeof volume === 'string'
          ? { source: volume.split(':')[0], target: volume.split(':')[1] }
          : { source: String(volume.source), target: volume.target },
      );
      stores.add(mounts.find((mount) => mount.target === '/data')?.source ?? 'none');
    }
    expect(stores.size).toBe(3);
  });
});
