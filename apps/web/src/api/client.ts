import { API_PATHS } from '@app/contracts/http/api-paths';
import { keyedRetryDelayMs } from './idempotency-key';

/** A refusal of the API: its status and Waldur's body (`{detail}` or `{field: [messages]}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(errorText(status, body));
    this.name = 'ApiError';
  }

  /** The messages for one field of a 400, none for other fields or answers. */
  field(name: string): string[] {
    const value = this.body[name];
    return Array.isArray(value) ? value.map(String) : [];
  }
}

function errorText(status: number, body: Record<string, unknown>): string {
  if (typeof body.detail === 'string') return body.detail;
  const fields = Object.entries(body).map(([field, messages]) => `${field}: ${String(messages)}`);
  return fields.length > 0 ? fields.join('; ') : `The server answered ${status}.`;
}

/** The public REST API, as the signed-in user: every call carries the token. Same origin only. */
export class ApiClient {
  constructor(
    readonly token: string,
    private readonly onUnauthorized: () => void,
  ) {}

  get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return this.call<T>('GET', path, undefined, signal);
  }

  /**
   * With `idempotencyKey` (one per user intent), a POST sent again makes nothing twice: one that
   * got no answer (the network, or a 502/503/504 of the gateway) is sent again under the same key.
   */
  async post<T>(path: string, body: unknown = {}, signal?: AbortSignal, idempotencyKey?: string): Promise<T> {
    if (idempotencyKey === undefined) return this.call<T>('POST', path, body, signal);
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.call<T>('POST', path, body, signal, idempotencyKey);
      } catch (failure) {
        // fetch rejects with a TypeError when no answer came at all; an abort is the user's.
        const unanswered = failure instanceof TypeError && !signal?.aborted;
        if (!unanswered && !(failure instanceof ApiError)) throw failure;
        const delay = keyedRetryDelayMs(unanswered ? undefined : (failure as ApiError).status, attempt);
        if (delay === null) throw failure;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  patch<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.call<T>('PATCH', path, body, signal);
  }

  /** 202 with the operation, or 204 (undefined) when there was nothing in vCenter to remove. */
  delete<T>(path: string, signal?: AbortSignal): Promise<T | undefined> {
    return this.call<T | undefined>('DELETE', path, undefined, signal);
  }

  private async call<T>(
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): Promise<T> {
    const response = await fetch(path, {
      method,
      signal,
      headers: {
        Authorization: `Token ${this.token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': `"${idempotencyKey}"` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401) this.onUnauthorized();
    return readAnswer<T>(response);
  }
}

async function readAnswer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { detail: text.slice(0, 200) };
  }
  if (!response.ok) {
    const body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    throw new ApiError(response.status, body);
  }
  return parsed as T;
}

/** `POST /api-auth/password/`: a token for a username and password. */
export async function logIn(username: string, password: string): Promise<string> {
  const response = await fetch(API_PATHS.login, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const answer = await readAnswer<{ token: string }>(response);
  return answer.token;
}

/** A message for the user from anything a call threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
