const DAY_MS = 86_400_000;

/** The end dates a date field may offer (ISO dates, UTC) and the hint that says why. */
export interface LeaseBounds {
  readonly min: string;
  readonly max: string | undefined;
  readonly hint: string | undefined;
}

/**
 * From tomorrow (an end date must be in the future; a date is read as the start of its day, UTC)
 * to the last day within the offering's maximum lease of `maxDays` (none: no upper bound). Pure.
 */
export function leaseBounds(maxDays: number | null, now = new Date()): LeaseBounds {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
  if (maxDays === null) return { min: day(1), max: undefined, hint: undefined };
  const max = day(maxDays);
  return {
    min: day(1),
    max,
    hint: `At most ${maxDays} days ahead (until ${max}), the offering's maximum lease.`,
  };
}
