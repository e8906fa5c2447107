import { idempotencyKeySchema } from '@app/contracts';
import { ApiError } from './http-types';

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/**
 * The `Idempotency-Key` header's value, or undefined without one. The IETF httpapi draft writes it
 * as a structured-field string (`"8e03978e-…"`, quoted); a bare token is taken as well, as clients
 * send both. A bad value is a 400 naming the header and its rule. Pure.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalid('Send this header once.');
  const trimmed = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(trimmed);
  const value = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : trimmed;
  const parsed = idempotencyKeySchema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error.issues[0].message);
  return parsed.data;
}

function invalid(message: string): ApiError {
  return new ApiError(400, { [IDEMPOTENCY_KEY]: [message] });
}
