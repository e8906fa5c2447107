import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
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
