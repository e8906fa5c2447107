import { ApiError } from './http-types';
import { readIdempotencyKey } from './idempotency-key-header';

function refusal(header: string | string[]): unknown {
  try {
    readIdempotencyKey(header);
  } catch (error) {
    return error instanceof ApiError ? { status: error.status, body: error.body } : error;
  }
  return 'accepted';
}

describe('readIdempotencyKey', () => {
  const key = '8e03978e-40d5-43e8-bc93-6894a57f9324';

  it('reads the draft’s quoted string, and a bare token', () => {
    expect(readIdempotencyKey(`"${key}"`)).toBe(key);
    expect(readIdempotencyKey(key)).toBe(key);
    expect(readIdempotencyKey(' "a\\"b" ')).toBe('a"b');
    expect(readIdempotencyKey(undefined)).toBeUndefined();
  });

  it('answers 400 naming the header for a blank, long, non-ASCII or repeated key', () => {
    const named = (message: string) => ({ status: 400, body: { 'Idempotency-Key': [message] } });
    expect(refusal('""')).toEqual(named('This header may not be blank.'));
    expect(refusal('x'.repeat(256))).toEqual(named('Ensure this header has no more than 255 characters.'));
    expect(refusal('"clé"')).toEqual(named('Only visible ASCII characters are allowed.'));
    expect(refusal([key, key])).toEqual(named('Send this header once.'));
  });
});
