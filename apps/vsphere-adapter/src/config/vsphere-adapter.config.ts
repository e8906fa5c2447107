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
  METRICS_PORT: env.port(9102),
  EVENT_HISTORY_MS: env.milliseconds(7 * 24 * 3_600_000),
  ORDER_CONCURRENCY: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(256).default(8),
});

export type VsphereAdapterConfig = z.infer<typeof schema>;

export function loadVsphereAdapterConfig(
  source: Record<string, string | undefined> = process.env,
): VsphereAdapterConfig {
  return loadConfig(schema, source);
}

export const VSPHERE_SCHEMA = 'vsphere';
export const CONFIG = Symbol('VsphereAdapterConfig');
