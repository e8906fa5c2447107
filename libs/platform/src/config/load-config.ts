import { z } from 'zod';

/** Thrown when the environment does not satisfy an app's config schema; its message names every bad variable. */
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
      const value = present[name];
      const shown = value === undefined ? 'unset' : `"${value}"`;
      return `${name} (${shown}): ${issue.message}`;
    }),
  );
}

/** Shared variable rules, so every app spells and checks them the same way. */
export const env = {
  postgresUrl: () =>
    z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
      .default('postgres://postgres@127.0.0.1:5432/vmmarket'),
  natsUrl: () =>
    z.url({ protocol: /^(nats|tls)$/, error: 'must be a nats:// URL' }).default('nats://127.0.0.1:4222'),
  natsNamespace: () =>
    z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be lowercase letters, digits and dashes, starting with a letter')
      .default('vmm'),
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
};
