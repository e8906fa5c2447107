/**
 * Text no service can store: NUL (Postgres refuses it in text and jsonb alike) and lone UTF-16
 * surrogates (UTF-8 cannot carry them; the driver would store U+FFFD instead of what was sent).
 * The gateway refuses both in every query value and body, key or value, at any depth, so no
 * route — today's or a future one whose schema says only `z.string()` — passes them on.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnstorableText {
  /** Dotted path of the field, as validation errors name fields. */
  field: string;
  message: string;
}

function problemOf(text: string): string | null {
  if (text.includes('\0')) return 'Null characters are not allowed.';
  return LONE_SURROGATE.test(text) ? 'Not a valid string.' : null;
}

/** The first string (or key) in `value` that cannot be stored, or null. */
export function findUnstorableText(value: unknown, path: readonly string[] = []): UnstorableText | null {
  const field = () => (path.length > 0 ? path.join('.') : 'non_field_errors');
  if (typeof value === 'string') {
    const message = problemOf(value);
    return message ? { field: field(), message } : null;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      if (keyProblem) return { field: [...path, key.replace(/\0/g, '\\0')].join('.'), message: keyProblem };
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
