import { z } from 'zod';
import { env, loadConfig } from '@app/platform';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  NATS_URL: env.natsUrl(),
  NATS_NAMESPACE: env.natsNamespace(),
  LOG_LEVEL: env.logLevel(),
  OUTBOX_SWEEP_MS: env.milliseconds(5_000),
  CONSUMER_ACK_WAIT_MS: env.milliseconds(30_000),
  EVENT_HISTORY_MS: env.milliseconds(7 * 24 * 3_600_000),
});

export type OrderServiceConfig = z.infer<typeof schema>;

export function loadOrderServiceConfig(
  source: Record<string, string | undefined> = process.env,
): OrderServiceConfig {
  return loadConfig(schema, source);
}

export const MARKETPLACE_SCHEMA = 'marketplace';
