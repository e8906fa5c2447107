/**
 * When the client sends a request again. A POST only with an `Idempotency-Key` (a create the API
 * answers once per key, `keyed`): without one, a create or an action sent twice could order (and
 * pay for) a second VM, so its failure is reported as it is. GET (idempotent) and a keyed POST retry
 * connection errors, 5xx and 429, with exponential backoff, or the server's `Retry-After`.
 */
export type RequestOutcome =
  { kind: 'response'; status: number; retryAfter?: string | null } | { kind: 'network-error' };

export const BASE_DELAY_MS = 250;
export const MAX_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is reported instead. */
export const MAX_RETRY_AFTER_MS = 30_000;

export function isRetriable(method: string, outcome: RequestOutcome, keyed = false): boolean {
  if (method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && keyed)) return false;
  if (outcome.kind === 'network-error') return true;
  return outcome.status >= 500 || outcome.status === 429;
}

/**
 * How long to wait before retry number `retry` (0 for the first), or null to give up: not
 * retriable, out of retries, or a `Retry-After` too far away.
 */
export function retryDelayMs(
  method: string,
  outcome: RequestOutcome,
  retry: number,
  maxRetries: number,
  keyed = false,
): number | null {
  if (retry >= maxRetries || !isRetriable(method, outcome, keyed)) return null;
  const backoff = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry);
  if (outcome.kind === 'response' && outcome.retryAfter) {
    const seconds = Number(outcome.retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) {
      const wait = seconds * 1000;
      return wait > MAX_RETRY_AFTER_MS ? null : Math.max(wait, backoff);
    }
  }
  return backoff;
}
