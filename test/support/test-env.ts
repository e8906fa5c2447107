/** Connection URLs for tests: what global setup settled on, or the local defaults. */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
};

/** A short unique token for database names, NATS namespaces and offering names of one suite. */
export function uniqueToken(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
