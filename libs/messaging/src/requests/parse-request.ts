import type { RequestReply } from '@app/contracts';
import type { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: RequestReply<never> };

/**
 * Validates a request payload; a failure becomes a 400 whose `fields` name each bad field with its
 * rule, Waldur style (`{"field": ["message"]}`), and whose `detail` says what the rest was.
 */
export function parseRequest<S extends z.ZodType>(schema: S, payload: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(payload, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (fields[[...issue.path, key].join('.')] ??= []).push('Unknown field.');
      continue;
    }
    const name = issue.path.length > 0 ? issue.path.join('.') : 'non_field_errors';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : issue.message;
    (fields[name] ??= []).push(message);
  }
  return { ok: false, reply: { status: 'error', code: 400, fields } };
}
