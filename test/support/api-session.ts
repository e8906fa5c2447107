import { callRest, createStaffToken, insertToken, runSql, successBody, type Answer } from './rest-client';

export type Json = Record<string, unknown>;
export type { Answer };

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
    await this.adopt(name, await createStaffToken(name, env));
  }

  /** Takes `token` as `name`'s (one made before the gateway served, by `createStaffToken`). */
  async adopt(name: string, token: string): Promise<void> {
    this.tokens[name] = token;
    this.users[name] = (await this.ok<Json>(name, 'GET', '/api/users/me/')).uuid as string;
  }

  /** A new user, created by `staff`, with a token of its own. */
  async user(name: string, staff: string): Promise<string> {
    const created = await this.ok<Json>(staff, 'POST', '/api/users/', { username: name, full_name: name });
    this.users[name] = created.uuid as string;
    this.tokens[name] = await insertToken(this.databaseUrl, this.users[name]);
    return this.users[name];
  }

  /**
   * Staff set `name`'s password; the change revokes the user's tokens, so `name` signs in again
   * with it for a fresh one, as a client would.
   */
  async setPassword(staff: string, name: string, password: string): Promise<void> {
    await this.ok(staff, 'POST', `/api/users/${this.users[name]}/change_password/`, {
      new_password: password,
    });
    const login = await callRest<{ token: string }>(`${this.base}/api-auth/password/`, {
      method: 'POST',
      token: null,
      body: JSON.stringify({ username: name, password }),
    });
    this.tokens[name] = successBody(login, 'POST', '/api-auth/password/').token;
  }

  async call<T = unknown>(
    who: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>> {
    const answer = await callRest<T>(path.startsWith('http') ? path : `${this.base}${path}`, {
      method,
      token: who ? this.tokens[who] : null,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers,
    });
    this.transcript.push(answer.text);
    return answer;
  }

  /** A call that must succeed (2xx); its body. */
  async ok<T = Json>(who: string, method: string, path: string, body?: unknown): Promise<T> {
    return successBody(await this.call<T>(who, method, path, body), method, path);
  }

  async sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.databaseUrl, text, values);
  }
}
