import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../cli-error';
import type { Settings } from '../config/settings';
import { EXIT } from '../exit-codes';
import { apiErrorMessage } from './api-error-message';
import type { DebugLog } from './debug-log';
import { retryDelayMs, type RequestOutcome } from './retry-policy';

export type Query = Record<string, string | undefined>;

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * The public REST API over fetch, with the token. GET, and a POST with an `Idempotency-Key`,
 * retry per `retry-policy`; any other POST, PATCH and DELETE are sent once.
 * A 4xx becomes a CliError (exit 3) with the API's message; an unreachable API exit 4.
 */
export class ApiClient {
  /** HTTP requests sent (retries included): `--debug` and the bench report it. */
  requests = 0;

  constructor(
    readonly settings: Settings,
    private readonly log: DebugLog,
  ) {}

  url(path: string, query: Query = {}): string {
    const url = new URL(path, `${this.settings.apiUrl}/`);
    for (const [key, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(key, value);
    return url.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': 'waldur-cli',
      ...extra,
    };
    if (this.settings.token) headers.Authorization = `Token ${this.settings.token}`;
    return headers;
  }

  get<T>(path: string, query?: Query): Promise<ApiResponse<T>> {
    return this.send<T>('GET', this.url(path, query));
  }

  /** An absolute URL the API gave (a `Link: rel="next"`), fetched as it is. */
  getUrl<T>(url: string): Promise<ApiResponse<T>> {
    return this.send<T>('GET', url);
  }

  /**
   * With `idempotencyKey` (one per user intent, a UUID), an unanswered POST is sent
   * again under the same key, which the API answers with the first answer instead of a second create.
   */
  post<T>(path: string, body: unknown, query?: Query, idempotencyKey?: string): Promise<ApiResponse<T>> {
    return this.send<T>('POST', this.url(path, query), body, idempotencyKey);
  }

  /** A change of an object (`PATCH`): like POST, sent once. */
  patch<T>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.send<T>('PATCH', this.url(path), body);
  }

  /** `DELETE`: sent once, as its answer (an operation started) is not the same twice. */
  delete<T>(path: string): Promise<ApiResponse<T>> {
    return this.send<T>('DELETE', this.url(path));
  }

  private async send<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<ApiResponse<T>> {
    const extra: Record<string, string> = {
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...(idempotencyKey !== undefined && { 'Idempotency-Key': `"${idempotencyKey}"` }),
    };
    for (let retry = 0; ; retry++) {
      const started = Date.now();
      let outcome: RequestOutcome;
      let response: Response | undefined;
      let failure: Error | undefined;
      this.requests++;
      try {
        response = await fetch(url, {
          method,
          headers: this.headers(extra),
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.settings.httpTimeoutMs),
        });
        outcome = {
          kind: 'response',
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
        };
      } catch (error) {
        failure = error as Error;
        outcome = { kind: 'network-error' };
      }
      this.log.write(
        `${method} ${url} → ${response ? response.status : `failed (${describeNetworkError(failure)})`} in ${Date.now() - started} ms`,
      );
      const keyed = idempotencyKey !== undefined;
      const delay = retryDelayMs(method, outcome, retry, this.settings.maxRetries, keyed);
      if (delay !== null) {
        await response?.body?.cancel();
        this.log.write(
          `retrying ${method} ${url} in ${delay} ms (retry ${retry + 1} of ${this.settings.maxRetries})`,
        );
        await sleep(delay);
        continue;
      }
      if (!response) {
        throw new CliError(
          `cannot reach ${this.settings.apiUrl}: ${describeNetworkError(failure)}`,
          EXIT.unavailable,
        );
      }
      return this.read<T>(response);
    }
  }

  private async read<T>(response: Response): Promise<ApiResponse<T>> {
    const text = await response.text();
    let parsed: unknown = text;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Kept as text: the message below shows it.
      }
    }
    if (response.status >= 400) {
      const code = response.status >= 500 || response.status === 429 ? EXIT.unavailable : EXIT.refused;
      throw new CliError(apiErrorMessage(response.status, parsed), code, parsed);
    }
    return {
      status: response.status,
      body: (text === '' ? undefined : parsed) as T,
      headers: response.headers,
    };
  }
}

/** fetch hides the reason under `cause` (ECONNREFUSED, a timeout). */
export function describeNetworkError(error: Error | undefined): string {
  if (!error) return 'unknown error';
  if (error.name === 'TimeoutError') return 'timed out';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}
