/**
 * A new `Idempotency-Key` for one user intent (one order as the form stands): a random UUID (v4).
 * Made from `crypto.getRandomValues`, which browsers offer outside secure contexts too (a portal
 * served over plain HTTP on a LAN address has no `crypto.randomUUID`).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How often a create under an Idempotency-Key is sent again when no answer came: twice more. */
export const KEYED_RETRIES = 2;

/**
 * Whether, and after how long, a POST under an Idempotency-Key is sent again: when no answer came
 * (the network failed: `undefined`) or the gateway answered that its service did not (502, 503,
 * 504), after 1 s and then 2 s. The key makes the retry safe: the API answers the first create, or
 * runs it when the first made nothing. Any other answer, a refusal included, is final. Pure.
 */
export function keyedRetryDelayMs(status: number | undefined, attempt: number): number | null {
  if (attempt >= KEYED_RETRIES) return null;
  if (status !== undefined && status !== 502 && status !== 503 && status !== 504) return null;
  return 1_000 * 2 ** attempt;
}
