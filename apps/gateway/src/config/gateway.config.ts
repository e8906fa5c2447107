import { join } from 'node:path';
import { z } from 'zod';
import { appConfigSchema, env, loadConfig, metricsConfigShape } from '@app/platform';
import { cidrList } from './cidr-list';

/** `dist/web`, seen from this file's build (`dist/apps/gateway/apps/gateway/src/config`). */
const DEFAULT_WEB_DIR = join(__dirname, '..', '..', '..', '..', '..', '..', 'web');

const schema = appConfigSchema({
  GATEWAY_HOST: z
    .union([z.ipv4(), z.ipv6(), z.literal('localhost')], { error: 'must be an IP address or localhost' })
    .default('127.0.0.1'),
  GATEWAY_PORT: env.port(8080),
  /** `/metrics` on a port of its own, as the services serve it: never on the public port. */
  ...metricsConfigShape(9100),
  /**
   * Proxies in front whose `X-Forwarded-For` is believed (comma-separated addresses or CIDRs; none
   * by default). Login throttling counts the client each names, not the proxy.
   */
  TRUSTED_PROXIES: cidrList(),
  /** How long a REST request waits for the owning service before answering 503. */
  REQUEST_TIMEOUT_MS: env.milliseconds(5_000),
  /**
   * How long the SSE feed stream keeps events: how far back a client may resume. At least 24 in
   * production (the default); tests set a fraction of an hour to see history expire.
   */
  SSE_HISTORY_HOURS: z.coerce
    .number({ error: 'must be a number of hours' })
    .positive('must be greater than 0')
    .max(24 * 365, 'must be at most a year (8760 hours)')
    .default(24),
  /** A comment line this often on every SSE stream, so proxies do not close idle ones. */
  SSE_HEARTBEAT_MS: env.milliseconds(15_000),
  /** Bytes an SSE client may have waiting before it is dropped with a final `overflow` event. */
  SSE_QUEUE_LIMIT_BYTES: z.coerce
    .number({ error: 'must be a whole number of bytes' })
    .int('must be a whole number of bytes')
    .min(4_096, 'must be at least 4096')
    .default(1_048_576),
  /** Streams one user may hold open on this gateway instance at once; one more is answered 429. */
  SSE_MAX_STREAMS_PER_USER: z.coerce
    .number({ error: 'must be a whole number of streams' })
    .int('must be a whole number of streams')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(8),
  /** Every SSE subscriber's token and access are checked again this often (AccessChanged acts at once). */
  SSE_RECHECK_MS: env.milliseconds(60_000),
  /** The web portal's build (`npm run build` writes `dist/web`), served at `/`. */
  WEB_DIR: z.string().min(1).default(DEFAULT_WEB_DIR),
});

export type GatewayConfig = z.infer<typeof schema>;

export function loadGatewayConfig(source: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(schema, source);
}

export const CONFIG = Symbol('GatewayConfig');
export const SERVICES_CLIENT = Symbol('ServicesClient');
