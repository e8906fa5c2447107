import fc from 'fast-check';
import { array, fromJson, object, raw, value, type JsonNode } from './json-text';

/** Keys that reach an object's prototype or a framework's internals when code is careless. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  '__lookupSetter__',
] as const;

/** Strings that break parsers, databases, logs and headers. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(10),
  '\t\r\n\u000b\u000c',
  '\u0001\u0002\u0003\u001f\u007f',
  '\u202e\u200b\ufeff',
  '\ud800',
  'x\udfffy',
  '💥🧨👩‍👩‍👧',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '\r\nX-Injected: 1',
  'null',
  'true',
  'NaN',
  '-0',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/** Numbers as JSON text, including those a double cannot hold. */
const NASTY_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '1e400',
  '-1e400',
  '1e-400',
  '9007199254740993',
  '123456789012345678901234567890123456789',
  '1.7976931348623157e308',
  '0.1',
  '1E+2',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  // Long: past every field's limit, sometimes past the body limit (256 KiB).
  { weight: 1, arbitrary: fc.constantFrom(200, 2_001, 70_000, 300_000).map((length) => 'x'.repeat(length)) },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' ', 'a.b', 'a[0]', '$where', 'uuid', 'is_staff', 'url', 'created'),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** Arrays or objects nested `depth` deep (the gateway stops at 32). */
const deep: fc.Arbitrary<JsonNode> = fc
  .tuple(fc.integer({ min: 2, max: 120 }), fc.boolean())
  .map(([depth, arrays]) => {
    let node: JsonNode = value(1);
    for (let level = 0; level < depth; level++) node = arrays ? array([node]) : object([['a', node]]);
    return node;
  });

/** A value of any JSON type, and of types JSON does not have (raw, broken text). */
export const hostileValue: fc.Arbitrary<JsonNode> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map(value) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_NUMBERS).map(raw) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('"\\ud800"', '"\\u0000"', '"\\udfff\\ud800"', 'nul', 'tru', '"unterminated')
      .map(raw),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<JsonNode>(value(null), value(true), value(false), array([]), object([])),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(fromJson) },
  { weight: 1, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc
      .array(hostileKey, { maxLength: 4 })
      .map((keys) => object(keys.map((key) => [key, value(1)]))),
  },
);

/** Whole bodies that are not the object a route expects. */
export const hostileBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '0',
    '"text"',
    '[]',
    '[{}]',
    '{',
    '{"a":',
    '{"a" 1}',
    '{,}',
    '{"a":1,}',
    '\ufeff{}',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '{"__proto__":{"is_staff":true}}',
    '{"constructor":{"prototype":{"is_staff":true}}}',
    'a=1&b=2',
    '<xml/>',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 4 }).map((json) => JSON.stringify(json) ?? 'null'),
);
