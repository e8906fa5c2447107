import type { WaldurSchema } from './waldur-schema';

type Schema = Record<string, unknown>;

/** Which fields of Waldur's request schema a body carries: its required ones, or every one it describes. */
export type BodyVariant = 'required' | 'all';

/**
 * A value of the type a schema describes, for a field the test has no real value for: the first enum
 * value, the minimum, an empty list. Real links and names come from `known`.
 */
function sample(waldur: WaldurSchema, raw: Schema): unknown {
  const schema = waldur.resolve(raw);
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null && value !== '');
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const first = (options as Schema[]).map((option) => waldur.resolve(option)).find((o) => !isNullEnum(o));
      return first === undefined ? null : sample(waldur, first);
    }
  }
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'email') return 'conformance@example.com';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.format === 'decimal') return '1.00';
      return 'conformance'.slice(0, typeof schema.maxLength === 'number' ? schema.maxLength : undefined);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return objectSample(waldur, schema);
  }
}

/** An object with its required fields, each a sample of its type. */
function objectSample(waldur: WaldurSchema, schema: Schema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, sample(waldur, properties[name] ?? {})]));
}

function isNullEnum(schema: Schema): boolean {
  return Array.isArray(schema.enum) && schema.enum.every((value) => value === null);
}

/**
 * The body Waldur's request schema describes: its required fields (or all of its writable ones),
 * each from `known` when the test has a real value, else a sample of its type. `leaveOut` names
 * fields the exemptions say we refuse (required ones too: the exemption says why), `alsoRequired`
 * those we require where Waldur's document does not.
 */
export function requestBody(
  waldur: WaldurSchema,
  raw: Schema,
  variant: BodyVariant,
  known: Record<string, unknown>,
  leaveOut: readonly string[] = [],
  alsoRequired: readonly string[] = [],
): Record<string, unknown> {
  const schema = waldur.resolve(raw);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set([...((schema.required ?? []) as string[]), ...alsoRequired]);
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.readOnly === true) continue;
    if (variant === 'required' && !required.has(name)) continue;
    if (leaveOut.includes(name)) continue;
    body[name] = name in known ? known[name] : sample(waldur, property);
  }
  return body;
}
