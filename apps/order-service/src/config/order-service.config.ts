import { z } from 'zod';
import { loadConfig, metricsConfigShape, serviceConfigSchema } from '@app/platform';

const schema = serviceConfigSchema({ ...metricsConfigShape(9101) });

export type OrderServiceConfig = z.infer<typeof schema>;

export function loadOrderServiceConfig(
  source: Record<string, string | undefined> = process.env,
): OrderServiceConfig {
  return loadConfig(schema, source);
}

export const MARKETPLACE_SCHEMA = 'marketplace';
