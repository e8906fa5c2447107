import { keyedRetryDelayMs, newIdempotencyKey } from './idempotency-key';

describe('newIdempotencyKey', () => {
  it('makes a random version-4 UUID, a new one each time', () => {
    const keys = Array.from({ length: 100 }, () => newIdempotencyKey());
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(100);
  });
});

describe('keyedRetryDelayMs', () => {
  it('sends a keyed create again after no answer or a 502/503/504, after 1 s and then 2 s, twice at most', () => {
    expect(keyedRetryDelayMs(undefined, 0)).toBe(1_000);
    expect(keyedRetryDelayMs(503, 1)).toBe(2_000);
    expect(keyedRetryDelayMs(502, 0)).toBe(1_000);
    expect(keyedRetryDelayMs(504, 0)).toBe(1_000);
    expect(keyedRetryDelayMs(undefined, 2)).toBeNull();
  });

  it('takes any other answer as final: a refusal, a conflict, a reused key', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 500])
      expect(keyedRetryDelayMs(status, 0)).toBeNull();
  });
});
