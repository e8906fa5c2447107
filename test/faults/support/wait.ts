export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true; resolves with the time it became true, or undefined at the deadline. */
export async function until(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 250,
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe that throws (a dependency still down) counts as not yet.
    if (await probe().catch(() => false)) return Date.now();
    if (Date.now() > deadline) return undefined;
    await sleep(everyMs);
  }
}

/**
 * Polls `remaining` until it counts 0; gives up only once the count has not fallen for `stallMs`,
 * resolving with the last count. For work whose pace is the machine's (hundreds of VM orders on a
 * CI machine with other work beside it): a slower machine takes longer, a stuck order still fails.
 */
export async function untilNoneRemain(
  remaining: () => Promise<number>,
  stallMs: number,
  everyMs = 500,
): Promise<number> {
  let lowest = Infinity;
  let fellAt = Date.now();
  for (;;) {
    // A probe that throws (a dependency still down) counts as no progress.
    const count = await remaining().catch(() => lowest);
    if (count === 0) return 0;
    if (count < lowest) [lowest, fellAt] = [count, Date.now()];
    if (Date.now() - fellAt > stallMs) return count;
    await sleep(everyMs);
  }
}

/** A whole number from the environment, for quick local runs; the committed default otherwise. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number of ms or a count, got "${raw}"`);
  return value;
}
