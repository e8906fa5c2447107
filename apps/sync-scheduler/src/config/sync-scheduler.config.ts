import { z } from 'zod';
import { env, loadConfig } from '@app/platform';

const schema = z.object({
  NATS_URL: env.natsUrl(),
  NATS_NAMESPACE: env.natsNamespace(),
  LOG_LEVEL: env.logLevel(),
});

export type SyncSchedulerConfig = z.infer<typeof schema>;

export function loadSyncSchedulerConfig(
  source: Record<string, string | undefined> = process.env,
): SyncSchedulerConfig {
  return loadConfig(schema, source);
}
