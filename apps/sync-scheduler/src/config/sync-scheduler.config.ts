import { z } from 'zod';
import { env, loadConfig, metricsConfigShape, serviceConfigSchema } from '@app/platform';

const schema = serviceConfigSchema({
  ...metricsConfigShape(9103),
  /** How often every vSphere offering is synchronised (Waldur: every 24 hours). */
  SYNC_INTERVAL_MS: env.milliseconds(24 * 3_600_000),
  /** How often the leader looks for offerings that are due, and a follower tries to lead. */
  SYNC_TICK_MS: env.milliseconds(60_000),
  /** How often the leader has the order service act on end dates that are due (warnings, terminations). */
  END_DATE_TICK_MS: env.milliseconds(60_000),
});

export type SyncSchedulerConfig = z.infer<typeof schema>;

export function loadSyncSchedulerConfig(
  source: Record<string, string | undefined> = process.env,
): SyncSchedulerConfig {
  return loadConfig(schema, source);
}

export const SCHEDULER_SCHEMA = 'scheduler';
export const CONFIG = Symbol('SyncSchedulerConfig');
