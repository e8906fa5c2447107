import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topology } from '@app/contracts';
import { loadConfig } from '@app/platform/config/load-config';
import { appConfigSchema } from '@app/platform/config/base-config';
import { requestSubject } from '../requests/namespaced-nats';
import { natsConnectionOptions } from './nats-options';

const SEED = 'SUAK6KOLA5V2FKQKAQYQMTR2L25GAD2TO7G7WEA5Q7USEZUGR72HAVPJTE';
const config = (env: Record<string, string | undefined>) => loadConfig(appConfigSchema({}), env);

describe('natsConnectionOptions', () => {
  it('reconnects without limit, with the configured wait and jitters, on every server of NATS_URL', () => {
    const options = natsConnectionOptions(
      config({ NATS_URL: 'nats://a:4222,nats://b:4222', NATS_RECONNECT_WAIT_MS: '750' }),
      'gateway',
    );
    expect(options).toMatchObject({
      servers: ['nats://a:4222', 'nats://b:4222'],
      name: 'gateway',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 750,
      reconnectJitter: 500,
      reconnectJitterTLS: 1_000,
      ignoreAuthErrorAbort: true,
    });
  });

  it('receives replies on the app’s own inbox prefix in the namespace', () => {
    const options = natsConnectionOptions(
      config({ NATS_NAMESPACE: 'ns-2' }),
      'order-service',
      'order-service-requests',
    );
    expect(options.inboxPrefix).toBe('_INBOX.ns-2.order-service');
    expect(options.name).toBe('order-service-requests');
  });

  it('connects without credentials or TLS when none are configured (a development NATS)', () => {
    const options = natsConnectionOptions(config({}), 'gateway');
    expect(options.user).toBeUndefined();
    expect(options.authenticator).toBeUndefined();
    expect(options.tls).toBeUndefined();
  });

  it('authenticates with user and password', () => {
    expect(natsConnectionOptions(config({ NATS_USER: 'u', NATS_PASSWORD: 'p' }), 'gateway')).toMatchObject({
      user: 'u',
      pass: 'p',
    });
  });

  it('signs the server’s nonce with the nkey seed, given as a value or a file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nkey-'));
    writeFileSync(join(folder, 'seed.nk'), `${SEED}\n`);
    const nonce = 'bm9uY2U';
    for (const env of [{ NATS_NKEY_SEED: SEED }, { NATS_NKEY_SEED_FILE: join(folder, 'seed.nk') }]) {
      const { authenticator } = natsConnectionOptions(config(env), 'gateway');
      expect(typeof authenticator).toBe('function');
      const auth = (authenticator as (nonce?: string) => { nkey?: string; sig?: string })(nonce);
      expect(auth.nkey).toBe('UCFTT6VNERFRNATUD3J4K7KBIIFVC3LN7ITHZD6CGI2DVSTH6G4EFQEF');
      expect(auth.sig).toBeTruthy();
    }
  });

  it('refuses a seed that is not one (bad checksum, or not a seed at all) without quoting it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nkey-'));
    const corrupted = `${SEED.slice(0, 20)}AAAA${SEED.slice(24)}`;
    writeFileSync(join(folder, 'seed.nk'), 'SUsomething-secret-but-wrong');
    const attempts = [{ NATS_NKEY_SEED: corrupted }, { NATS_NKEY_SEED_FILE: join(folder, 'seed.nk') }];
    for (const env of attempts) {
      let message = '';
      try {
        natsConnectionOptions(config(env), 'gateway');
      } catch (error) {
        message = String(error);
      }
      expect(message).toMatch(/does not hold a valid nkey user seed/);
      expect(message).not.toContain('something-secret');
      expect(message).not.toContain(corrupted.slice(2, 30));
    }
  });

  it('passes the TLS files, and asks for TLS when a server URL says tls://', () => {
    const folder = mkdtempSync(join(tmpdir(), 'tls-'));
    for (const name of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(folder, name), 'x');
    const files = natsConnectionOptions(
      config({
        NATS_TLS_CA_FILE: join(folder, 'ca.pem'),
        NATS_TLS_CERT_FILE: join(folder, 'cert.pem'),
        NATS_TLS_KEY_FILE: join(folder, 'key.pem'),
      }),
      'gateway',
    );
    expect(files.tls).toEqual({
      caFile: join(folder, 'ca.pem'),
      certFile: join(folder, 'cert.pem'),
      keyFile: join(folder, 'key.pem'),
    });
    expect(natsConnectionOptions(config({ NATS_URL: 'tls://nats:4222' }), 'gateway').tls).toEqual({});
  });
});

describe('request subjects', () => {
  it('are the ones the permission table grants: the Nest client and server use topology.requests', () => {
    const names = topology('t9');
    for (const pattern of ['marketplace.users.update', 'vsphere.health', 'scheduler.health'])
      expect(requestSubject('t9', pattern)).toBe(names.requests.subject(pattern));
  });
});
