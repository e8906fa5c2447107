import { z } from 'zod';
import { appConfigSchema, env, loadConfig } from '@app/platform';

const schema = appConfigSchema({
  GATEWAY_HOST: z
    .union([z.ipv4(), z.ipv6(), z.literal('localhost')], { error: 'must be an IP address or localhost' })
    .default('127.0.0.1'),
  GATEWAY_PORT: env.port(8080),
  /** How long a REST request waits for the owning service before answering 503. */
  REQUEST_TIMEOUT_MS: env.milliseconds(5_000),
});

export type GatewayConfig = z.infer<typeof schema>;

export function loadGatewayConfig(source: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(schema, source);
}

export const CONFIG = Symbol('GatewayConfig');
export const SERVICES_CLIENT = Symbol('ServicesClient');
