import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATS_APPS, topology } from '@app/contracts';
import { nkeyVariable, renderAuthorization } from './render-authorization';

const ROOT = join(__dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const COMMITTED = join(ROOT, 'deploy', 'nats', 'authorization.conf');

describe('the nats-server configuration in deploy/nats', () => {
  it('is what the permission table generates for the default namespace (run `npm run nats:config -- --out deploy/nats/authorization.conf`)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderAuthorization(topology('vmm')));
  });

  it('names one nkey user per app and holds no key or password', () => {
    const text = renderAuthorization(topology('vmm'));
    for (const app of NATS_APPS) expect(text).toContain(`nkey: $${nkeyVariable('vmm', app)}\n`);
    expect(text).not.toMatch(/\bU[A-Z2-7]{55}\b|\bS[A-Z2-7]{57}\b|password/i);
  });
});

describe('deploy/nats/nats-keys.js', () => {
  const authorization = join(mkdtempSync(join(tmpdir(), 'nats-auth-')), 'authorization.conf');
  const run = (out: string) =>
    execFileSync(
      NODE,
      ['deploy/nats/nats-keys.js', '--namespace', 'k-ns', '--authorization', authorization, '--out', out],
      { cwd: ROOT, encoding: 'utf8' },
    );

  beforeAll(() => {
    execFileSync(NODE, ['scripts/nats-config.js', '--namespace', 'k-ns', '--out', authorization], {
      cwd: ROOT,
    });
  });

  it('makes a key pair for every app the authorization names: the seed readable by its owner only', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'nats-keys-')), 'keys');
    run(out);
    const env = readFileSync(join(out, 'nkeys.env'), 'utf8').trim().split('\n');
    expect(env.map((line) => line.split('=')[0])).toEqual(NATS_APPS.map((app) => nkeyVariable('k-ns', app)));
    for (const line of env) expect(line).toMatch(/^NATS_NKEY_K_NS_[A-Z_]+=U[A-Z2-7]{55}$/);
    for (const app of NATS_APPS) {
      const seed = join(out, `${app}.nk`);
      expect(readFileSync(seed, 'utf8')).toMatch(/^SU[A-Z2-7]{56}\n$/);
      expect(statSync(seed).mode & 0o077).toBe(0);
    }
  });

  it('keeps the keys it made when run again', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'nats-keys-')), 'keys');
    run(out);
    const first = readFileSync(join(out, 'nkeys.env'), 'utf8');
    const seed = readFileSync(join(out, 'gateway.nk'), 'utf8');
    run(out);
    expect(readFileSync(join(out, 'nkeys.env'), 'utf8')).toBe(first);
    expect(readFileSync(join(out, 'gateway.nk'), 'utf8')).toBe(seed);
  });
});
