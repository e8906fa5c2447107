import { z } from 'zod';
import { env, loadConfig } from '@app/platform';

const schema = z.object({
  NATS_URL: env.natsUrl(),
  NATS_NAMESPACE: env.natsNamespace(),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.milliseconds(10_000),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: env.port(9103),
});

export type SyncSchedulerConfig = z.infer<typeof schema>;

export function loadSyncSchedulerConfig(
  source: Record<string, string | undefined> = process.env,
): SyncSchedulerConfig {
  return loadConfig(schema, source);
}
