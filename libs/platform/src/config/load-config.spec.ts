import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { appConfigSchema, serviceConfigSchema } from './base-config';
import { ConfigError, env, loadConfig } from './load-config';

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

const SEED = 'SUAK6KOLA5V2FKQKAQYQMTR2L25GAD2TO7G7WEA5Q7USEZUGR72HAVPJTE';

describe('loadConfig', () => {
  const schema = z.object({
    GATEWAY_PORT: env.port(8080),
    OUTBOX_SWEEP_MS: env.milliseconds(5_000),
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(schema, { GATEWAY_PORT: '' }).GATEWAY_PORT).toBe(8080);
  });

  it('names every malformed variable, its value and the rule', () => {
    expect(problemsOf(() => loadConfig(schema, { GATEWAY_PORT: '80a', OUTBOX_SWEEP_MS: '-5' }))).toEqual([
      'GATEWAY_PORT ("80a"): must be a port number',
      'OUTBOX_SWEEP_MS ("-5"): must be greater than 0',
    ]);
  });
});

describe('the base schemas every app extends', () => {
  const service = serviceConfigSchema({ ORDER_CONCURRENCY: env.port(8) });

  it('applies the local defaults when nothing is set', () => {
    expect(loadConfig(service, {})).toEqual({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/vmmarket',
      NATS_URL: ['nats://127.0.0.1:4222'],
      NATS_NAMESPACE: 'vmm',
      NATS_STREAM_REPLICAS: 1,
      NATS_RECONNECT_WAIT_MS: 1_000,
      NATS_RECONNECT_JITTER_MS: 500,
      NATS_RECONNECT_JITTER_TLS_MS: 1_000,
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: 10_000,
      OUTBOX_SWEEP_MS: 5_000,
      OUTBOX_RELAY_ENABLED: true,
      CONSUMER_ACK_WAIT_MS: 30_000,
      CONSUMER_HANDLER_TIMEOUT_MS: 120_000,
      EVENT_HISTORY_MS: 7 * 24 * 3_600_000,
      ORDER_CONCURRENCY: 8,
    });
  });

  it('keeps the fields of the app that extends it', () => {
    const gateway = appConfigSchema({ GATEWAY_PORT: env.port(8080) });
    const config = loadConfig(gateway, { GATEWAY_PORT: '9000', NATS_NAMESPACE: 'ns-1' });
    expect(config).toMatchObject({ GATEWAY_PORT: 9000, NATS_NAMESPACE: 'ns-1' });
    expect(config).not.toHaveProperty('DATABASE_URL');
  });

  it('refuses credentials in NATS_URL, which nats.js would ignore, without showing them', () => {
    expect(problemsOf(() => loadConfig(service, { NATS_URL: 'nats://a:4222,nats://u:pw@b:4222' }))).toEqual([
      'NATS_URL ("nats://a:4222,nats://***@b:4222"): must not hold credentials: set NATS_USER and NATS_PASSWORD, or an nkey seed',
    ]);
  });

  it('reads several NATS servers separated by commas', () => {
    const config = loadConfig(service, { NATS_URL: 'nats://a:4222, tls://b:4222,nats://c' });
    expect(config.NATS_URL).toEqual(['nats://a:4222', 'tls://b:4222', 'nats://c']);
  });

  it('reads NATS_STREAM_REPLICAS as a whole number from 1 to 5', () => {
    expect(loadConfig(service, { NATS_STREAM_REPLICAS: '3' }).NATS_STREAM_REPLICAS).toBe(3);
    for (const bad of ['0', '6', '2.5', 'three'])
      expect(problemsOf(() => loadConfig(service, { NATS_STREAM_REPLICAS: bad }))).toEqual([
        `NATS_STREAM_REPLICAS ("${bad}"): must be a whole number from 1 to 5`,
      ]);
  });

  it('names every malformed shared variable and its rule', () => {
    expect(
      problemsOf(() =>
        loadConfig(service, {
          DATABASE_URL: 'mysql://x',
          NATS_URL: 'nats://a:4222,http://b',
          NATS_NAMESPACE: 'Bad_NS',
          NATS_TLS_CA_FILE: '/nonexistent/ca.pem',
        }),
      ),
    ).toEqual([
      'NATS_URL ("nats://a:4222,http://b"): must be a nats:// URL, or several separated by commas',
      'NATS_NAMESPACE ("Bad_NS"): must be lowercase letters, digits and dashes, starting with a letter',
      'NATS_TLS_CA_FILE ("/nonexistent/ca.pem"): must be a readable file',
      'DATABASE_URL ("mysql://x"): must be a postgres:// URL',
    ]);
  });

  it('accepts one way to authenticate: user and password, or an nkey seed, or a seed file', () => {
    const seedFile = join(tmpdir(), `seed-${process.pid}.nk`);
    writeFileSync(seedFile, SEED);
    expect(loadConfig(service, { NATS_USER: 'u', NATS_PASSWORD: 'p' })).toMatchObject({ NATS_USER: 'u' });
    expect(loadConfig(service, { NATS_NKEY_SEED: SEED })).toMatchObject({ NATS_NKEY_SEED: SEED });
    expect(loadConfig(service, { NATS_NKEY_SEED_FILE: seedFile })).toMatchObject({
      NATS_NKEY_SEED_FILE: seedFile,
    });
  });

  it('refuses half a credential, two at once, and a certificate without its key', () => {
    const certFile = join(tmpdir(), `cert-${process.pid}.pem`);
    writeFileSync(certFile, 'x');
    expect(problemsOf(() => loadConfig(service, { NATS_USER: 'u' }))).toEqual([
      'NATS_USER ("u"): needs NATS_PASSWORD',
    ]);
    expect(problemsOf(() => loadConfig(service, { NATS_PASSWORD: 'hunter2' }))).toEqual([
      'NATS_PASSWORD (set, value hidden): needs NATS_USER',
    ]);
    expect(
      problemsOf(() => loadConfig(service, { NATS_USER: 'u', NATS_PASSWORD: 'p', NATS_NKEY_SEED: SEED })),
    ).toEqual(['NATS_USER ("u"): set either NATS_USER and NATS_PASSWORD or an nkey seed, not both']);
    expect(problemsOf(() => loadConfig(service, { NATS_TLS_CERT_FILE: certFile }))).toEqual([
      `NATS_TLS_CERT_FILE ("${certFile}"): needs NATS_TLS_KEY_FILE`,
    ]);
  });
});

describe('a configuration error never prints a secret', () => {
  const service = serviceConfigSchema({});
  const secrets = ['s3cr3t-pw', 'n4ts-pw', 'tok3n', 'SUNOTAVALIDSEEDBUTSECRET'];

  it('hides the userinfo of URLs and the values of secret variables', () => {
    const problems = problemsOf(() =>
      loadConfig(service, {
        DATABASE_URL: 'mysql://app:s3cr3t-pw@db:3306/x',
        NATS_URL: 'nats://u:n4ts-pw@a:4222,http://tok3n@b:4222',
        NATS_NKEY_SEED: 'SUNOTAVALIDSEEDBUTSECRET',
        NATS_PASSWORD: 'hunter2',
      }),
    );
    expect(problems).toEqual([
      'NATS_URL ("nats://***@a:4222,http://***@b:4222"): must be a nats:// URL, or several separated by commas',
      'NATS_NKEY_SEED (set, value hidden): must be an nkey user seed (58 characters starting with SU)',
      'DATABASE_URL ("mysql://***@db:3306/x"): must be a postgres:// URL',
    ]);
    const text = problems.join('\n');
    for (const secret of [...secrets, 'hunter2']) expect(text).not.toContain(secret);
  });

  it('hides a password that holds the characters a URL reserves', () => {
    const [problem] = problemsOf(() => loadConfig(service, { DATABASE_URL: 'mysql://app:p@ss/w,rd@db/x' }));
    expect(problem).toBe('DATABASE_URL ("mysql://***@db/x"): must be a postgres:// URL');
  });
});
