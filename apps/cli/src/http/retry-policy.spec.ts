import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../cli-error';
import type { Settings } from '../config/settings';
import { EXIT } from '../exit-codes';
import { ApiClient } from './api-client';
import { DebugLog } from './debug-log';
import { BASE_DELAY_MS, MAX_DELAY_MS, retryDelayMs } from './retry-policy';

describe('retry rules', () => {
  it('never retries a POST without an Idempotency-Key, whatever happened', () => {
    expect(retryDelayMs('POST', { kind: 'network-error' }, 0, 3)).toBeNull();
    expect(retryDelayMs('POST', { kind: 'response', status: 503 }, 0, 3)).toBeNull();
    expect(retryDelayMs('POST', { kind: 'response', status: 429 }, 0, 3)).toBeNull();
  });

  it('retries a GET on connection errors, 5xx and 429 with exponential backoff, up to the limit', () => {
    expect(retryDelayMs('GET', { kind: 'network-error' }, 0, 3)).toBe(BASE_DELAY_MS);
    expect(retryDelayMs('GET', { kind: 'response', status: 502 }, 1, 3)).toBe(BASE_DELAY_MS * 2);
    expect(retryDelayMs('GET', { kind: 'response', status: 429 }, 2, 3)).toBe(BASE_DELAY_MS * 4);
    expect(retryDelayMs('GET', { kind: 'response', status: 500 }, 3, 3)).toBeNull();
    expect(retryDelayMs('GET', { kind: 'response', status: 500 }, 20, 99)).toBe(MAX_DELAY_MS);
  });

  it('retries a POST with an Idempotency-Key as a GET: unanswered, 5xx and 429, never a 4xx', () => {
    expect(retryDelayMs('POST', { kind: 'network-error' }, 0, 3, true)).toBe(BASE_DELAY_MS);
    expect(retryDelayMs('POST', { kind: 'response', status: 503 }, 1, 3, true)).toBe(BASE_DELAY_MS * 2);
    expect(retryDelayMs('POST', { kind: 'response', status: 503 }, 3, 3, true)).toBeNull();
    for (const status of [201, 400, 409, 422])
      expect(retryDelayMs('POST', { kind: 'response', status }, 0, 3, true)).toBeNull();
    expect(retryDelayMs('PATCH', { kind: 'network-error' }, 0, 3, true)).toBeNull();
  });

  it('does not retry a GET the API refused (4xx) or answered', () => {
    for (const status of [200, 400, 401, 403, 404])
      expect(retryDelayMs('GET', { kind: 'response', status }, 0, 3)).toBeNull();
  });

  it("waits as long as a 429's Retry-After asks, unless that is too long", () => {
    expect(retryDelayMs('GET', { kind: 'response', status: 429, retryAfter: '2' }, 0, 3)).toBe(2000);
    expect(retryDelayMs('GET', { kind: 'response', status: 429, retryAfter: '3600' }, 0, 3)).toBeNull();
  });
});

describe('ApiClient against a real HTTP server', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  const keys: (string | string[] | undefined)[] = [];
  let answers: number[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      keys.push(request.headers['idempotency-key']);
      const status = answers.shift() ?? 200;
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(status === 200 ? { ok: true } : { detail: `status ${status}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    hits.length = 0;
    keys.length = 0;
  });

  const client = (apiUrl = base) =>
    new ApiClient(
      { apiUrl, maxRetries: 2, httpTimeoutMs: 5000, debug: false } as Settings,
      new DebugLog(false),
    );

  it('sends a GET again after a 503 and a 429, and returns the success', async () => {
    answers = [503, 429, 200];
    const response = await client().get('/api/x/');
    expect(response.body).toEqual({ ok: true });
    expect(hits).toEqual(['GET /api/x/', 'GET /api/x/', 'GET /api/x/']);
  });

  it('sends a POST once even when it fails with 503: exit 4, the API message', async () => {
    answers = [503, 200];
    const failure = await client()
      .post('/api/marketplace-orders/', {})
      .catch((error: unknown) => error);
    expect(hits).toEqual(['POST /api/marketplace-orders/']);
    expect(failure).toBeInstanceOf(CliError);
    expect((failure as CliError).exitCode).toBe(EXIT.unavailable);
    expect((failure as CliError).message).toBe('503: status 503');
  });

  it('sends a POST with an Idempotency-Key again after a 503, under the same key, and returns the success', async () => {
    answers = [503, 200];
    const response = await client().post('/api/marketplace-orders/', {}, undefined, 'intent-1');
    expect(response.body).toEqual({ ok: true });
    expect(hits).toEqual(['POST /api/marketplace-orders/', 'POST /api/marketplace-orders/']);
    expect(keys).toEqual(['"intent-1"', '"intent-1"']);
  });

  it('reports a 4xx at once as refused (exit 3)', async () => {
    answers = [404];
    const failure = (await client()
      .get('/api/x/')
      .catch((error: unknown) => error)) as CliError;
    expect(hits).toHaveLength(1);
    expect(failure.exitCode).toBe(EXIT.refused);
  });

  it('retries a GET on connection errors and then says the API cannot be reached (exit 4)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const api = client(`http://127.0.0.1:${port}`);
    const failure = (await api.get('/api/x/').catch((error: unknown) => error)) as CliError;
    expect(api.requests).toBe(3);
    expect(failure.exitCode).toBe(EXIT.unavailable);
    expect(failure.message).toMatch(/cannot reach .*ECONNREFUSED/);
  });
});
