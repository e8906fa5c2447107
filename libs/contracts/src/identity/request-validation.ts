import type { z } from 'zod';
import type { RequestReply } from '../requests/request-reply';

export type Validated<T> = { ok: true; value: T } | { ok: false; reply: RequestReply<never> };

/**
 * Validates a request (or one part of it); a failure becomes a 400 whose `fields` name each bad
 * field with its rule, Waldur style (`{"field": ["message"]}`).
 *
 * Field names are the keys the client sent, so they can be `__proto__`, `constructor` or
 * `toString`: the map has no prototype, or `fields[name] ??= []` would find Object.prototype's
 * members and fail (a JSON body with one such key used to be a 500).
 */
export function validateRequest<S extends z.ZodType>(schema: S, payload: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(payload, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const fields = Object.create(null) as Record<string, string[]>;
  const add = (name: string, message: string) => {
    if (!Object.hasOwn(fields, name)) fields[name] = [];
    if (!fields[name].includes(message)) fields[name].push(message);
  };
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), 'Unknown field.');
      continue;
    }
    const name = issue.path.length > 0 ? issue.path.join('.') : 'non_field_errors';
    add(
      name,
      issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : issue.message,
    );
  }
  return { ok: false, reply: { status: 'error', code: 400, fields } };
}
