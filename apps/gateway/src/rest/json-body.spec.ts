import { tokenFromHeader } from './caller-resolver';
import { ApiError } from './http-types';
import { parseJsonBody } from './json-body';

function refusal(work: () => unknown): { status: number; body: unknown } {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('not refused');
}

describe('JSON bodies', () => {
  it('parses JSON, and reads an empty body as {}', () => {
    expect(parseJsonBody('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(parseJsonBody('', undefined)).toEqual({});
  });

  it('answers malformed JSON with 400 and the parser message', () => {
    expect(refusal(() => parseJsonBody('{"a":', 'application/json'))).toEqual({
      status: 400,
      body: { detail: expect.stringMatching(/^JSON parse error - /) as string },
    });
  });

  it('answers a body that is not JSON with 415', () => {
    expect(refusal(() => parseJsonBody('a=1', 'application/x-www-form-urlencoded')).status).toBe(415);
  });

  it('takes +json media types and UTF-8, refuses other charsets with 415', () => {
    expect(parseJsonBody('{"a":1}', 'application/problem+json')).toEqual({ a: 1 });
    expect(parseJsonBody('{"a":1}', 'application/json; charset="UTF-8"')).toEqual({ a: 1 });
    expect(refusal(() => parseJsonBody('{"a":1}', 'application/json; charset=latin1')).status).toBe(415);
  });

  it('refuses bytes that are not UTF-8, duplicate keys and deep nesting with 400', () => {
    expect(refusal(() => parseJsonBody(Buffer.from([0x7b, 0xff, 0x7d]), 'application/json'))).toEqual({
      status: 400,
      body: { detail: 'JSON parse error - the body is not valid UTF-8.' },
    });
    expect(refusal(() => parseJsonBody('{"a":1,"a":2}', 'application/json')).body).toEqual({
      detail: 'JSON parse error - key "a" appears twice in one object.',
    });
    expect(refusal(() => parseJsonBody('['.repeat(40) + ']'.repeat(40), 'application/json')).status).toBe(
      400,
    );
  });

  it('never quotes the body back in a parse error (a broken login would echo its password)', () => {
    const answer = refusal(() => parseJsonBody('{"password":"hunter2-secret" x', 'application/json'));
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
    expect(refusal(() => parseJsonBody('hunter2-secret', 'application/json')).body).toEqual({
      detail: 'JSON parse error - malformed JSON.',
    });
  });
});

describe('Authorization: Token header', () => {
  it('takes the key', () => {
    expect(tokenFromHeader('Token abc123')).toBe('abc123');
    expect(tokenFromHeader('token abc123')).toBe('abc123');
  });

  it.each([
    [undefined, 'Authentication credentials were not provided.'],
    ['Bearer abc', 'Authentication credentials were not provided.'],
    ['Token', 'Invalid token header. No credentials provided.'],
    ['Token a b', 'Invalid token header. Token string should not contain spaces.'],
  ])('refuses %p with 401: %s', (header, detail) => {
    expect(refusal(() => tokenFromHeader(header))).toEqual({ status: 401, body: { detail } });
  });
});
