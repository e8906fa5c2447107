import { z } from 'zod';
import { loadConfig, metricsConfigShape, serviceConfigSchema } from '@app/platform';

const schema = serviceConfigSchema({
  ...metricsConfigShape(9101),
  /**
   * How long an API token lives after its last use (Waldur's sliding TOKEN_LIFETIME; 1 hour). Use
   * renews it at most once a minute, so a lifetime under a minute does not slide.
   */
  TOKEN_LIFETIME_S: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .positive('must be greater than 0')
    .max(31_536_000, 'must be at most a year (31536000 seconds)')
    .default(3_600),
});

export type OrderServiceConfig = z.infer<typeof schema>;

export function loadOrderServiceConfig(
  source: Record<string, string | undefined> = process.env,
): OrderServiceConfig {
  return loadConfig(schema, source);
}

export const MARKETPLACE_SCHEMA = 'marketplace';
