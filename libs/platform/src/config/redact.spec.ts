import { describeValue, isSecretVariable, redactUrlUserinfo } from './redact';

describe('redactUrlUserinfo', () => {
  it.each([
    ['postgres://app:pw@db:5432/x', 'postgres://***@db:5432/x'],
    ['nats://token@nats:4222', 'nats://***@nats:4222'],
    ['nats://a:1@h1:4222,nats://b:2@h2:4222', 'nats://***@h1:4222,nats://***@h2:4222'],
    ['nats://h1:4222, tls://u:p@h2', 'nats://h1:4222, tls://***@h2'],
    ['postgres://u:p@ss@db/x', 'postgres://***@db/x'],
    ['postgres://u:pa/ss@db/x?sslmode=require', 'postgres://***@db/x?sslmode=require'],
    ['postgres://db:5432/x', 'postgres://db:5432/x'],
    ['not a url', 'not a url'],
  ])('%s → %s', (value, shown) => {
    expect(redactUrlUserinfo(value)).toBe(shown);
  });
});

describe('secret variables', () => {
  it.each(['NATS_PASSWORD', 'NATS_NKEY_SEED', 'API_TOKEN', 'ENCRYPTION_KEY', 'CLIENT_SECRET', 'NATS_PASS'])(
    '%s is never shown',
    (name) => {
      expect(isSecretVariable(name)).toBe(true);
      expect(describeValue(name, 'x')).toBe('set, value hidden');
    },
  );

  it.each(['NATS_NKEY_SEED_FILE', 'NATS_TLS_KEY_FILE', 'NATS_URL', 'GATEWAY_PORT', 'NATS_USER'])(
    '%s is shown (without URL userinfo)',
    (name) => {
      expect(isSecretVariable(name)).toBe(false);
      expect(describeValue(name, 'nats://u:p@h')).toBe('"nats://***@h"');
    },
  );
});
