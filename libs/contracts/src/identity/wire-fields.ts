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
  minLength: (min: number) => `Ensure this field has at least ${min} characters.`,
  nullCharacter: 'Null characters are not allowed.',
} as const;

/**
 * The length limit as the first check that stops the rest: zod runs a string's checks in order and,
 * unless one aborts, every later refine and pattern still sees an oversized value (a 250 KiB body
 * through a pattern costs the adapter's only thread a second). Put it before any pattern.
 */
export const maxLengthFirst = (max: number) => ({ error: messages.maxLength(max), abort: true });

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string Postgres can store as text: no NUL (Django REST framework refuses it with this message,
 * Postgres with an error) and no lone UTF-16 surrogate (which UTF-8 cannot carry: the driver would
 * silently store U+FFFD instead of what was sent).
 */
function storable(max: number) {
  return z
    .string({ error: messages.string })
    .max(max, maxLengthFirst(max))
    .refine((value) => !value.includes('\0'), messages.nullCharacter)
    .refine((value) => !LONE_SURROGATE.test(value), messages.string);
}

/** A string of at most `max` characters; `blank` allows the empty string. */
export function text(max: number, options: { blank?: boolean } = {}) {
  const base = storable(max);
  return options.blank ? base : base.trim().min(1, messages.blank);
}

/**
 * A password as typed: never trimmed (Django REST framework keeps a password's spaces), at most
 * `max` characters so hashing costs the same for every request.
 */
export function secret(max = 128) {
  return storable(max).min(1, messages.blank);
}

/** A new password: Django's default rules of length and of not being all digits. */
export function newPassword() {
  return secret()
    .min(8, 'This password is too short. It must contain at least 8 characters.')
    .refine((value) => !/^\d+$/.test(value), 'This password is entirely numeric.');
}

/** A free-text query parameter (`?name=acme`): at most `max` characters, storable like `text`. */
export const queryText = (max: number) => storable(max);

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

const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * A link to another resource, as Waldur writes it: its absolute URL (`https://host/api/projects/<uuid>/`),
 * its path (`/api/projects/<uuid>/`) or, for convenience, the bare uuid. The uuid is what travels on; visibility is checked by the owner.
 */
export function hyperlink(collection: string) {
  const pattern = new RegExp(
    `^(?:(?:[a-z][a-z0-9+.-]*://[^/]+)?/api/${collection}/)?(${UUID_SOURCE})/?$`,
    'i',
  );
  return z
    .string({ error: messages.string })
    .max(500, maxLengthFirst(500))
    .regex(pattern, 'Invalid hyperlink - Object does not exist.')
    .meta({ description: `URL of the ${collection} resource (its bare uuid is accepted too)` });
}

/**
 * A link to a plan in any of Waldur's forms: under its offering
 * (`https://host/api/marketplace-public-offerings/<uuid>/plans/<uuid>/`), as `/api/marketplace-plans/<uuid>/`,
 * either without the host, or the bare uuid.
 */
export function planHyperlink() {
  const pattern = new RegExp(
    `^(?:(?:[a-z][a-z0-9+.-]*://[^/]+)?/api/(?:marketplace-public-offerings/${UUID_SOURCE}/plans|marketplace-plans)/)?(${UUID_SOURCE})/?$`,
    'i',
  );
  return z
    .string({ error: messages.string })
    .max(500, maxLengthFirst(500))
    .regex(pattern, 'Invalid hyperlink - Object does not exist.')
    .meta({ description: 'URL of the plan (its bare uuid is accepted too)' });
}

/** The uuid a `hyperlink()` value names. */
export function uuidOfHyperlink(value: string): string {
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i.exec(value);
  if (!match) throw new Error(`not a hyperlink: ${value}`);
  return match[1].toLowerCase();
}
