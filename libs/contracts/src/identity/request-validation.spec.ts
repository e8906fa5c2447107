import { z } from 'zod';
import { validateRequest } from './request-validation';
import { newPassword, queryText, text } from './wire-fields';

const body = z.strictObject({ name: text(10) });

function fieldsOf(payload: unknown): Record<string, string[]> {
  const parsed = validateRequest(body, payload);
  if (parsed.ok || parsed.reply.status !== 'error') throw new Error('expected a refusal');
  return { ...parsed.reply.fields };
}

describe('validateRequest', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'names an unknown key %p like any other (it used to reach Object.prototype and crash)',
    (key) => {
      const payload = JSON.parse(`{"name":"ok","${key}":{"is_staff":true}}`) as unknown;
      expect(fieldsOf(payload)).toEqual({ [key]: ['Unknown field.'] });
      expect(JSON.parse(JSON.stringify(fieldsOf(payload)))).toEqual(
        JSON.parse(`{"${key}":["Unknown field."]}`),
      );
    },
  );

  it('says a missing field is required and names the root for a body that is not an object', () => {
    expect(fieldsOf({})).toEqual({ name: ['This field is required.'] });
    expect(Object.keys(fieldsOf([1]))).toEqual(['non_field_errors']);
  });
});

describe('text fields Postgres can store', () => {
  const check = (schema: z.ZodType, value: string) =>
    schema.safeParse(value).error?.issues.map((i) => i.message);

  it("refuses NUL with DRF's message, and lone surrogates", () => {
    expect(check(text(10), 'a\u0000b')).toEqual(['Null characters are not allowed.']);
    expect(check(queryText(10), '\u0000')).toEqual(['Null characters are not allowed.']);
    expect(check(text(10), 'x\ud800')).toEqual(['Not a valid string.']);
    expect(check(text(10), '\udc00x')).toEqual(['Not a valid string.']);
  });

  it('takes any well-formed text, emoji (surrogate pairs) included', () => {
    expect(check(text(10), 'ok 💥')).toBeUndefined();
    expect(check(text(10), 'tab\there')).toBeUndefined();
  });

  it("new passwords follow Django's default length and all-digits rules", () => {
    expect(check(newPassword(), 'short1')).toEqual([
      'This password is too short. It must contain at least 8 characters.',
    ]);
    expect(check(newPassword(), '12345678')).toEqual(['This password is entirely numeric.']);
    expect(check(newPassword(), ' spaces are kept ')).toBeUndefined();
  });
});
