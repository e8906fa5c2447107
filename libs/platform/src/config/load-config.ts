import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import { describeValue } from './redact';

/**
 * Thrown when the environment does not satisfy an app's config schema; its message names every bad
 * variable, and never shows a secret (see `describeValue`).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables against a schema whose keys are the variable names. Empty strings
 * count as unset, so `FOO= npm start` falls back to the default rather than failing on "".
 */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      return `${name} (${describeValue(name, present[name])}): ${issue.message}`;
    }),
  );
}

const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

function parseUrl(candidate: string): URL | undefined {
  try {
    return new URL(candidate);
  } catch {
    return undefined;
  }
}

function isNatsUrl(candidate: string): boolean {
  const url = parseUrl(candidate);
  return url !== undefined && (url.protocol === 'nats:' || url.protocol === 'tls:') && url.hostname !== '';
}

// nats.js reads only host and port from a server URL: credentials in it would be silently ignored.
function hasUserinfo(candidate: string): boolean {
  const url = parseUrl(candidate);
  return url !== undefined && (url.username !== '' || url.password !== '');
}

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Shared variable rules, so every app spells and checks them the same way. */
export const env = {
  postgresUrl: () =>
    z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
      .default('postgres://postgres@127.0.0.1:5432/vmmarket'),
  /** One NATS URL, or several separated by commas (the servers of a cluster); `tls://` requires TLS. */
  natsServers: () =>
    z
      .string()
      .transform((value, ctx) => {
        const urls = value.split(',').map((url) => url.trim());
        if (!urls.every(isNatsUrl)) {
          ctx.addIssue({ code: 'custom', message: 'must be a nats:// URL, or several separated by commas' });
          return z.NEVER;
        }
        if (urls.some(hasUserinfo)) {
          ctx.addIssue({
            code: 'custom',
            message: 'must not hold credentials: set NATS_USER and NATS_PASSWORD, or an nkey seed',
          });
          return z.NEVER;
        }
        return urls;
      })
      .default([DEFAULT_NATS_URL]),
  natsNamespace: () =>
    z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be lowercase letters, digits and dashes, starting with a letter')
      .default('vmm'),
  /** true/false, also 1/0, yes/no, on/off. */
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((value) => ['true', '1', 'yes', 'on'].includes(value)),
  /**
   * How many NATS servers hold a copy of each stream: 1 for one server, 3 on a three-node cluster
   * (survives the loss of one node). JetStream allows at most 5.
   */
  streamReplicas: () =>
    z.coerce
      .number({ error: 'must be a whole number from 1 to 5' })
      .int('must be a whole number from 1 to 5')
      .min(1, 'must be a whole number from 1 to 5')
      .max(5, 'must be a whole number from 1 to 5')
      .default(1),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  milliseconds: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a whole number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .positive('must be greater than 0')
      .default(fallback),
  port: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a port number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(fallback),
  /** A path to a file this process can read, checked at start so a typo fails there and not at connect. */
  readableFile: () => z.string().refine(isReadableFile, 'must be a readable file').optional(),
  optionalText: (max = 1_000) => z.string().max(max, `must be at most ${max} characters`).optional(),
};
