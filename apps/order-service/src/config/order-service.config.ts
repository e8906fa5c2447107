import { z } from 'zod';
import { env, loadConfig } from '@app/platform';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  NATS_URL: env.natsUrl(),
  NATS_NAMESPACE: env.natsNamespace(),
  LOG_LEVEL: env.logLevel(),
  OUTBOX_SWEEP_MS: env.milliseconds(5_000),
  CONSUMER_ACK_WAIT_MS: env.milliseconds(30_000),
  CONSUMER_HANDLER_TIMEOUT_MS: env.milliseconds(120_000),
  SHUTDOWN_GRACE_MS: env.milliseconds(10_000),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: env.port(9101),
  EVENT_HISTORY_MS: env.milliseconds(7 * 24 * 3_600_000),
});

export type OrderServiceConfig = z.infer<typeof schema>;

export function loadOrderServiceConfig(
  source: Record<string, string | undefined> = process.env,
): OrderServiceConfig {
  return loadConfig(schema, source);
}

export const MARKETPLACE_SCHEMA = 'marketplace';
