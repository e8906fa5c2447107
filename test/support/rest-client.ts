import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..');

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  /** The body as it came, for scans that must see every byte. */
  text: string;
}

/** One REST call with an optional `Authorization: Token`; `body` is sent as it is given (already text). */
export async function callRest<T = unknown>(
  url: string,
  request: { method: string; token?: string | null; body?: string; headers?: Record<string, string> },
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token) headers.Authorization = `Token ${request.token}`;
  if (request.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await fetch(url, { method: request.method, headers, body: request.body });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
    text,
  };
}

/** The body of a successful (2xx) answer; throws with the answer otherwise. */
export function successBody<T>(answer: Answer<T>, method: string, path: string): T {
  if (answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** One SQL statement on its own connection: rows, as tests read state. */
export async function runSql<T>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    return (await pg.query(text, values)).rows as T[];
  } finally {
    await pg.end();
  }
}

/** `create-staff <username>` as an operator runs it, against `env`; the token it prints last. */
export async function createStaffToken(username: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(
    join(ROOT, 'node_modules', '.bin', 'node'),
    [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), username],
    { cwd: ROOT, env: { ...process.env, ...env } },
  );
  return stdout.trim().split('\n').pop() ?? '';
}

/** A new API token of the user, written as the order service stores one (its sha256), valid for an hour. */
export async function insertToken(databaseUrl: string, userUuid: string): Promise<string> {
  const token = randomBytes(20).toString('hex');
  const hash = createHash('sha256').update(token).digest('hex');
  await runSql(
    databaseUrl,
    `INSERT INTO marketplace.api_tokens (key_hash, user_uuid, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
    [hash, userUuid],
  );
  return token;
}
