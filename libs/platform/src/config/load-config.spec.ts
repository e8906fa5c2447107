import { z } from 'zod';
import { ConfigError, env, loadConfig } from './load-config';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  NATS_URL: env.natsUrl(),
  NATS_NAMESPACE: env.natsNamespace(),
  GATEWAY_PORT: env.port(8080),
  OUTBOX_SWEEP_MS: env.milliseconds(5_000),
});

describe('loadConfig', () => {
  it('applies the local defaults when nothing is set', () => {
    expect(loadConfig(schema, {})).toEqual({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/vmmarket',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_NAMESPACE: 'vmm',
      GATEWAY_PORT: 8080,
      OUTBOX_SWEEP_MS: 5_000,
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(schema, { GATEWAY_PORT: '' }).GATEWAY_PORT).toBe(8080);
  });

  it('names every malformed variable, its value and the rule', () => {
    let thrown: unknown;
    try {
      loadConfig(schema, {
        DATABASE_URL: 'mysql://x',
        GATEWAY_PORT: '80a',
        NATS_NAMESPACE: 'Bad_NS',
        OUTBOX_SWEEP_MS: '-5',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const { problems, message } = thrown as ConfigError;
    expect(problems).toEqual([
      'DATABASE_URL ("mysql://x"): must be a postgres:// URL',
      'NATS_NAMESPACE ("Bad_NS"): must be lowercase letters, digits and dashes, starting with a letter',
      'GATEWAY_PORT ("80a"): must be a port number',
      'OUTBOX_SWEEP_MS ("-5"): must be greater than 0',
    ]);
    expect(message).toContain('Invalid configuration');
  });
});
