import { z } from 'zod';
import { appConfigSchema, loadConfig } from '@app/platform';

const schema = appConfigSchema({});

export type SyncSchedulerConfig = z.infer<typeof schema>;

export function loadSyncSchedulerConfig(
  source: Record<string, string | undefined> = process.env,
): SyncSchedulerConfig {
  return loadConfig(schema, source);
}
