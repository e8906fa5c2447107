import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..');

export type Json = Record<string, unknown>;

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * The REST API of a running gateway as named users see it: each call carries the named user's
 * token. Users are made through the API by a staff user that `create-staff` creates.
 */
export class ApiSession {
  readonly tokens: Record<string, string> = {};
  readonly users: Record<string, string> = {};
  /** Every answer's body as text, in order: what a test scans for a secret that must never appear. */
  readonly transcript: string[] = [];

  constructor(
    readonly base: string,
    private readonly databaseUrl: string,
  ) {}

  /** Creates the first staff user with the project's own command, as an operator would. */
  async bootstrapStaff(name: string, env: Record<string, string>): Promise<void> {
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), name],
      { cwd: ROOT, env: { ...process.env, ...env } },
    );
    this.tokens[name] = stdout.trim().split('\n').pop()!;
    this.users[name] = (await this.ok<Json>(name, 'GET', '/api/users/me/')).uuid as string;
  }

  /** A new user, created by `staff`, with a token of its own. */
  async user(name: string, staff: string): Promise<string> {
    const created = await this.ok<Json>(staff, 'POST', '/api/users/', { username: name, full_name: name });
    this.users[name] = created.uuid as string;
    this.tokens[name] = randomBytes(20).toString('hex');
    const hash = createHash('sha256').update(this.tokens[name]).digest('hex');
    // Every token expires (issue 8): an hour is the default lifetime.
    await this.sql(
      `INSERT INTO marketplace.api_tokens (key_hash, user_uuid, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [hash, this.users[name]],
    );
    return this.users[name];
  }

  async call<T = unknown>(
    who: string | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (who) headers.Authorization = `Token ${this.tokens[who]}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    this.transcript.push(text);
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      headers: response.headers,
    };
  }

  /** A call that must succeed (2xx); its body. */
  async ok<T = Json>(who: string, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(who, method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const pg = new Client({ connectionString: this.databaseUrl });
    await pg.connect();
    try {
      return (await pg.query(text, values)).rows as T[];
    } finally {
      await pg.end();
    }
  }
}
