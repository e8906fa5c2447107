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
  /**
   * When a resource's project is warned before its end date: lead times in seconds, separated by
   * commas (Waldur warns a week and a day ahead).
   */
  END_DATE_WARNINGS_S: z
    .string()
    .default('604800,86400')
    .transform((value, ctx) => {
      const leads = value.split(',').map((part) => Number(part.trim()));
      if (leads.some((lead) => !Number.isInteger(lead) || lead <= 0)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be whole numbers of seconds above 0, separated by commas',
        });
        return z.NEVER;
      }
      return leads;
    }),
});

export type OrderServiceConfig = z.infer<typeof schema>;

export function loadOrderServiceConfig(
  source: Record<string, string | undefined> = process.env,
): OrderServiceConfig {
  return loadConfig(schema, source);
}

export const MARKETPLACE_SCHEMA = 'marketplace';
