import { Client } from 'pg';

/**
 * One fingerprint per table of the services' schemas: what a refused request must leave alone.
 * Left out on purpose: the login attempt counters (a refused login counts, by design), a token's
 * sliding expiry (any authenticated request, refused or not, may renew it), and the outbox relay's
 * bookkeeping (it publishes the events of earlier requests in the background).
 */
const SCHEMAS = ['marketplace', 'vsphere'];
// `offering_states`: the adapter's copy of offering states, written by its OfferingChanged consumer
// in the background from earlier requests' events, never by the request at hand.
const IGNORED_TABLES = ['login_attempts', 'migrations', 'offering_states'];
const IGNORED_COLUMNS = [
  'expires_at',
  'published_at',
  'attempts',
  'last_error',
  'next_attempt_at',
  'parked_at',
];

export type Digest = Record<string, string>;

export class DbDigest {
  private query = '';

  private constructor(private readonly client: Client) {}

  static async open(url: string): Promise<DbDigest> {
    const client = new Client({ connectionString: url });
    await client.connect();
    const digest = new DbDigest(client);
    const { rows } = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($2))
       ORDER BY table_schema, table_name`,
      [SCHEMAS, IGNORED_TABLES],
    );
    const row = `(to_jsonb(t)${IGNORED_COLUMNS.map((column) => ` - '${column}'`).join('')})::text`;
    digest.query = `SELECT ${rows
      .map(
        ({ table_schema: schema, table_name: table }) =>
          `(SELECT md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) FROM "${schema}"."${table}" t)
            AS "${schema}.${table}"`,
      )
      .join(', ')}`;
    return digest;
  }

  /** Each table's fingerprint, by `schema.table`. */
  async take(): Promise<Digest> {
    return (await this.client.query<Digest>(this.query)).rows[0];
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Digest, after: Digest): string[] {
  return Object.keys(after).filter((table) => after[table] !== before[table]);
}

/**
 * Whether a service consumed an event meanwhile: its effect lands with the event's inbox row in one
 * transaction (the design's rule), so a change beside an inbox change belongs to an earlier request.
 */
export function consumedAnEvent(changed: readonly string[]): boolean {
  return changed.some((table) => table.endsWith('.inbox'));
}
