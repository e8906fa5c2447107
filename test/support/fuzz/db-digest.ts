import { Client } from 'pg';

/**
 * One fingerprint of everything the marketplace schema holds that a refused request must leave
 * alone. Left out on purpose: the login attempt counters (a refused login counts, by design) and
 * a token's sliding expiry (any authenticated request, refused or not, may renew it).
 */
const IGNORED_TABLES = ['login_attempts', 'migrations'];
const IGNORED_COLUMNS = ['expires_at'];

export class DbDigest {
  private query = '';

  private constructor(private readonly client: Client) {}

  static async open(url: string): Promise<DbDigest> {
    const client = new Client({ connectionString: url });
    await client.connect();
    const digest = new DbDigest(client);
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'marketplace' AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))
       ORDER BY table_name`,
      [IGNORED_TABLES],
    );
    const drop = IGNORED_COLUMNS.map((column) => ` - '${column}'`).join('');
    digest.query = `SELECT ${rows
      .map(
        ({ table_name: table }) =>
          `(SELECT md5(coalesce(string_agg((to_jsonb(t)${drop})::text, ',' ORDER BY (to_jsonb(t)${drop})::text), ''))
            FROM marketplace."${table}" t) AS "${table}"`,
      )
      .join(', ')}`;
    return digest;
  }

  /** Each table's fingerprint, by name. */
  async take(): Promise<Record<string, string>> {
    return (await this.client.query<Record<string, string>>(this.query)).rows[0];
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
