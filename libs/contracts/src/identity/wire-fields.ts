import { z } from 'zod';

/**
 * Field rules with Django REST framework's own messages, so a Waldur client reads the errors it
 * knows. Used by the request schemas of every resource.
 */
export const messages = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  boolean: 'Must be a valid boolean.',
  integer: 'A valid integer is required.',
  uuid: 'Must be a valid UUID.',
  email: 'Enter a valid email address.',
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  minValue: (min: number) => `Ensure this value is greater than or equal to ${min}.`,
  maxValue: (max: number) => `Ensure this value is less than or equal to ${max}.`,
} as const;

/** A string of at most `max` characters; `blank` allows the empty string. */
export function text(max: number, options: { blank?: boolean } = {}) {
  const base = z.string({ error: messages.string }).max(max, messages.maxLength(max));
  return options.blank ? base : base.trim().min(1, messages.blank);
}

export const flag = () => z.boolean({ error: messages.boolean });

export const email = (max = 254) => z.email({ error: messages.email }).max(max, messages.maxLength(max));

export const uuidField = () => z.uuid({ error: messages.uuid });

/** A whole number from a query string: `?page=2`. Arrays and non-numbers fail with DRF's message. */
export function queryInteger(min: number, max: number) {
  return z.coerce
    .number({ error: messages.integer })
    .int(messages.integer)
    .min(min, messages.minValue(min))
    .max(max, messages.maxValue(max));
}

/** A query-string boolean as Django filters spell it. */
export const queryBoolean = () =>
  z
    .enum(['true', 'false', 'True', 'False', '1', '0'], { error: messages.boolean })
    .transform((value) => ['true', 'True', '1'].includes(value));

/**
 * A link to another resource, as Waldur writes it: its absolute URL (`https://host/api/projects/<uuid>/`)
 * or, for convenience, the bare uuid. The uuid is what travels on; visibility is checked by the owner.
 */
export function hyperlink(collection: string) {
  const pattern = new RegExp(
    `^(?:[a-z][a-z0-9+.-]*://[^/]+/api/${collection}/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/?$`,
    'i',
  );
  return z
    .string({ error: messages.string })
    .max(500, messages.maxLength(500))
    .regex(pattern, 'Invalid hyperlink - Object does not exist.')
    .meta({ description: `URL of the ${collection} resource (its bare uuid is accepted too)` });
}

/** The uuid a `hyperlink()` value names. */
export function uuidOfHyperlink(value: string): string {
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i.exec(value);
  if (!match) throw new Error(`not a hyperlink: ${value}`);
  return match[1].toLowerCase();
}
