import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { topology, type NatsApp } from '@app/contracts';
import { renderAuthorization } from '../../scripts/nats/render-authorization';
import { NatsServerProcess } from './nats-server-process';

const ROOT = join(__dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

export interface AuthNats {
  readonly server: NatsServerProcess;
  /** The file holding an app's nkey seed (its `NATS_NKEY_SEED_FILE`). */
  seedFile(app: NatsApp): string;
  /** A user with every right, for the test itself to look at streams: not one of the project's. */
  readonly observer: { user: string; pass: string };
  destroy(): Promise<void>;
}

/**
 * A nats-server of the test's own with the project's generated authorization for `namespace`, and
 * key pairs made by deploy/nats/nats-keys.js: the same path `npm start` takes.
 */
export async function startAuthNats(namespace: string, extraConfig = ''): Promise<AuthNats> {
  const folder = await mkdtemp(join(tmpdir(), 'vmm-nats-auth-'));
  const observer = { user: 'test-observer', pass: randomBytes(12).toString('hex') };
  const authorization = renderAuthorization(topology(namespace), {
    extraUsers: [`{ user: ${JSON.stringify(observer.user)}, password: ${JSON.stringify(observer.pass)} }`],
  });
  await writeFile(join(folder, 'authorization.conf'), authorization);
  const keys = join(folder, 'keys');
  await promisify(execFile)(
    NODE,
    [
      'deploy/nats/nats-keys.js',
      '--namespace',
      namespace,
      '--authorization',
      join(folder, 'authorization.conf'),
      '--out',
      keys,
    ],
    { cwd: ROOT },
  );
  const publicKeys = await readFile(join(keys, 'nkeys.env'), 'utf8');
  const server = new NatsServerProcess({ config: [publicKeys, extraConfig, authorization].join('\n') });
  await server.start();
  return {
    server,
    seedFile: (app) => join(keys, `${app}.nk`),
    observer,
    destroy: async () => {
      await server.destroy();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
