import { z } from 'zod';
import { loadConfig, metricsConfigShape, serviceConfigSchema } from '@app/platform';

const schema = serviceConfigSchema({
  ...metricsConfigShape(9102),
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
