import { createHash } from 'node:crypto';

/** How long a key's first answer is kept: the IETF httpapi draft's "at least 24 hours". */
export const IDEMPOTENCY_KEY_KEPT_MS = 24 * 60 * 60 * 1000;

/** How long a key stays held by a request that carries no deadline (a crashed holder lets go then). */
export const IDEMPOTENCY_HOLD_MS = 30_000;

export const KEY_REUSED =
  'The Idempotency-Key header was already used with another request; send a new key for a new request.';
export const KEY_IN_FLIGHT =
  'A request with this Idempotency-Key header is still being processed; retry it once it has been answered.';

/**
 * What a request is, for telling a retry from another request under the same key: the operation and
 * its parts, as canonical JSON (object keys sorted, so the body's key order does not matter).
 */
export function requestFingerprint(
  pattern: string,
  parts: { params: unknown; query: unknown; body: unknown },
): string {
  return createHash('sha256')
    .update(canonicalJson([pattern, parts.params, parts.query, parts.body]))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A key another request holds or held: what its stored row says about this one. */
export type KeyVerdict = 'replay' | 'reused' | 'in-flight';

export function judgeHeldKey(
  held: { fingerprint: string; answered: boolean },
  fingerprint: string,
): KeyVerdict {
  if (held.fingerprint !== fingerprint) return 'reused';
  return held.answered ? 'replay' : 'in-flight';
}
