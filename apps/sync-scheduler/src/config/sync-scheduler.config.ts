import { z } from 'zod';
import { appConfigSchema, loadConfig, metricsConfigShape } from '@app/platform';

const schema = appConfigSchema({ ...metricsConfigShape(9103) });

export type SyncSchedulerConfig = z.infer<typeof schema>;

export function loadSyncSchedulerConfig(
  source: Record<string, string | undefined> = process.env,
): SyncSchedulerConfig {
  return loadConfig(schema, source);
}
