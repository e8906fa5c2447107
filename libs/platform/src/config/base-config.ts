import { z } from 'zod';
import { env } from './load-config';

/**
 * The variables every app reads: where NATS is and how to authenticate to it, the log level and
 * the shutdown grace period.
 * No credentials at all is allowed (a development NATS without auth); a server that requires them
 * refuses such a connection, so the secure choice is made by the server's configuration.
 */
export const natsConfigShape = {
  NATS_URL: env.natsServers(),
  NATS_NAMESPACE: env.natsNamespace(),
  /** Copies of every stream the app creates (its own, the ones it consumes, the gateway's feed). */
  NATS_STREAM_REPLICAS: env.streamReplicas(),
  /** User and password, for a server configured with them. */
  NATS_USER: env.optionalText(),
  NATS_PASSWORD: env.optionalText(),
  /** An nkey user seed (`SU…`), the project's own server configuration uses these; or a file holding one. */
  NATS_NKEY_SEED: z
    .string()
    .trim()
    .regex(/^SU[A-Z2-7]{56}$/, 'must be an nkey user seed (58 characters starting with SU)')
    .optional(),
  NATS_NKEY_SEED_FILE: env.readableFile(),
  /** TLS: the CA that signed the server's certificate, and a client certificate where the server asks for one. */
  NATS_TLS_CA_FILE: env.readableFile(),
  NATS_TLS_CERT_FILE: env.readableFile(),
  NATS_TLS_KEY_FILE: env.readableFile(),
  /** Reconnection never gives up: it waits this long between attempts on one server, plus a random jitter. */
  NATS_RECONNECT_WAIT_MS: env.milliseconds(1_000),
  NATS_RECONNECT_JITTER_MS: env.milliseconds(500),
  NATS_RECONNECT_JITTER_TLS_MS: env.milliseconds(1_000),
  LOG_LEVEL: env.logLevel(),
  /** How long a SIGTERM waits for the work in flight before the process ends anyway. */
  SHUTDOWN_GRACE_MS: env.milliseconds(10_000),
};

/** What the two services that own a Postgres schema and an outbox read on top of the NATS base. */
export const serviceConfigShape = {
  DATABASE_URL: env.postgresUrl(),
  OUTBOX_SWEEP_MS: env.milliseconds(5_000),
  /**
   * Off: this instance publishes nothing from its outbox (events wait there for an instance whose
   * relay runs). For maintenance, and for the fault tests that need a commit left unpublished.
   */
  OUTBOX_RELAY_ENABLED: env.flag(true),
  CONSUMER_ACK_WAIT_MS: env.milliseconds(30_000),
  /** A handler still running after this is abandoned and its message redelivered. */
  CONSUMER_HANDLER_TIMEOUT_MS: env.milliseconds(120_000),
  EVENT_HISTORY_MS: env.milliseconds(7 * 24 * 3_600_000),
};

/** Where an app serves `/metrics` on a port of its own; each app has its own default port. */
export function metricsConfigShape(defaultPort: number) {
  return { METRICS_HOST: z.string().default('127.0.0.1'), METRICS_PORT: env.port(defaultPort) };
}
export type MetricsConfig = z.output<z.ZodObject<ReturnType<typeof metricsConfigShape>>>;

export type NatsConfig = z.output<z.ZodObject<typeof natsConfigShape>>;
export type ServiceBaseConfig = NatsConfig & z.output<z.ZodObject<typeof serviceConfigShape>>;

type NatsCredentials = Pick<
  NatsConfig,
  | 'NATS_USER'
  | 'NATS_PASSWORD'
  | 'NATS_NKEY_SEED'
  | 'NATS_NKEY_SEED_FILE'
  | 'NATS_TLS_CERT_FILE'
  | 'NATS_TLS_KEY_FILE'
>;

/** The rules between variables: one way to authenticate, and a client certificate comes with its key. */
function checkNatsCredentials(config: NatsCredentials, ctx: z.RefinementCtx): void {
  const problem = (variable: keyof NatsCredentials, message: string) =>
    ctx.addIssue({ code: 'custom', path: [variable], message });
  if (config.NATS_USER !== undefined && config.NATS_PASSWORD === undefined)
    problem('NATS_USER', 'needs NATS_PASSWORD');
  if (config.NATS_PASSWORD !== undefined && config.NATS_USER === undefined)
    problem('NATS_PASSWORD', 'needs NATS_USER');
  const nkey = config.NATS_NKEY_SEED !== undefined || config.NATS_NKEY_SEED_FILE !== undefined;
  if (config.NATS_NKEY_SEED !== undefined && config.NATS_NKEY_SEED_FILE !== undefined)
    problem('NATS_NKEY_SEED_FILE', 'set NATS_NKEY_SEED or NATS_NKEY_SEED_FILE, not both');
  if (nkey && config.NATS_USER !== undefined)
    problem('NATS_USER', 'set either NATS_USER and NATS_PASSWORD or an nkey seed, not both');
  if (config.NATS_TLS_CERT_FILE !== undefined && config.NATS_TLS_KEY_FILE === undefined)
    problem('NATS_TLS_CERT_FILE', 'needs NATS_TLS_KEY_FILE');
  if (config.NATS_TLS_KEY_FILE !== undefined && config.NATS_TLS_CERT_FILE === undefined)
    problem('NATS_TLS_KEY_FILE', 'needs NATS_TLS_CERT_FILE');
}

/** The base every app's schema extends: `appConfigSchema({ GATEWAY_PORT: env.port(8080) })`. */
export function appConfigSchema<S extends z.ZodRawShape>(own: S) {
  return z
    .object({ ...natsConfigShape, ...own })
    .superRefine((config, ctx) => checkNatsCredentials(config as NatsCredentials, ctx));
}

/** The base of a service with its own Postgres schema: NATS, plus the database, the outbox and the streams. */
export function serviceConfigSchema<S extends z.ZodRawShape>(own: S) {
  return appConfigSchema({ ...serviceConfigShape, ...own });
}
