import { ApiClient, ApiError } from './client';

/**
 * ApiClient.post under an Idempotency-Key, with `fetch` answering as the gateway would: what the
 * browser sends is what the stand-in records (the portal's tsconfig has no Node server to hand).
 */
describe('ApiClient.post under an Idempotency-Key', () => {
  const realFetch = globalThis.fetch;
  const keys: (string | null)[] = [];
  let answers: (number | 'no answer')[] = [];

  beforeAll(() => {
    globalThis.fetch = (_input: RequestInfo | URL, init?: RequestInit) => {
      keys.push(new Headers(init?.headers).get('Idempotency-Key'));
      const answer = answers.shift() ?? 201;
      if (answer === 'no answer') return Promise.reject(new TypeError('Failed to fetch'));
      const body = answer === 201 ? { uuid: 'made' } : { detail: `status ${answer}` };
      return Promise.resolve(new Response(JSON.stringify(body), { status: answer }));
    };
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });
  beforeEach(() => {
    keys.length = 0;
  });

  const api = new ApiClient('t', () => undefined);

  it('sends a create that got no answer, then a 503, again under the same key, and returns its answer', async () => {
    answers = ['no answer', 503];
    await expect(api.post('/api/x/', {}, undefined, 'intent-1')).resolves.toEqual({ uuid: 'made' });
    expect(keys).toEqual(['"intent-1"', '"intent-1"', '"intent-1"']);
  });

  it('sends a create once without a key, and once when refused (422) with one', async () => {
    answers = [503];
    await expect(api.post('/api/x/', {})).rejects.toBeInstanceOf(ApiError);
    answers = [422];
    await expect(api.post('/api/x/', {}, undefined, 'intent-2')).rejects.toMatchObject({ status: 422 });
    expect(keys).toEqual([null, '"intent-2"']);
  });
});
