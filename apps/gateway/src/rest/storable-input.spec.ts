import { findUnstorableText } from './storable-input';

describe('text no service can store', () => {
  it('finds NUL and lone surrogates in values, keys and nested fields, naming the field', () => {
    expect(findUnstorableText({ name: 'a\u0000b' })).toEqual({
      field: 'name',
      message: 'Null characters are not allowed.',
    });
    expect(findUnstorableText({ prices: { cpu: 1, 'x\ud800': 2 } })).toEqual({
      field: 'prices.x\ud800',
      message: 'Not a valid string.',
    });
    expect(findUnstorableText({ list: ['ok', ['\udfff']] })).toEqual({
      field: 'list.1.0',
      message: 'Not a valid string.',
    });
    expect(findUnstorableText('\u0000')).toEqual({
      field: 'non_field_errors',
      message: 'Null characters are not allowed.',
    });
  });

  it('lets through everything Postgres stores: emoji, control characters other than NUL, numbers', () => {
    expect(findUnstorableText({ name: '💥 \t\u0001', n: 1, ok: true, none: null, list: [] })).toBeNull();
  });
});
