const MB = 1024 * 1024;
// vCenter's fields are 64-bit longs: anything beyond is garbage.
const LONG_MAX = 2 ** 63;

/**
 * vCenter's byte count → MB (÷ 2^20, rounded down), as Waldur stores datastore capacity and free
 * space. -1 (vCenter's "unknown") is 0; a value that is not a number, negative or beyond 64 bits is
 * absurd: undefined, and that one datastore is skipped rather than the whole synchronisation. Pure.
 */
export function bytesToMb(bytes: number): number | undefined {
  if (bytes === -1) return 0;
  if (!Number.isFinite(bytes) || bytes < 0 || bytes >= LONG_MAX) return undefined;
  return Math.floor(bytes / MB);
}
