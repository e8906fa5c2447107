const DAY_MS = 86_400_000;

/** A date-only value (`2026-12-31`) ends at the start of that day, UTC, as Waldur reads a date. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

export type EndDateCheck = { ok: true; endDate: Date | null } | { ok: false; message: string };

/**
 * A requested end date (`end_date`: an ISO date, a date-time with its offset, or null to remove
 * it), checked against now and the offering's maximum lease (days ahead; null: none). Pure.
 */
export function checkEndDate(value: unknown, now: Date, maxDays: number | null): EndDateCheck {
  if (value === null) return { ok: true, endDate: null };
  if (typeof value !== 'string' || !(DATE_ONLY.test(value) || DATE_TIME.test(value)))
    return {
      ok: false,
      message: 'Enter a valid date or date-time with its offset (2026-12-31 or 2026-12-31T18:00:00Z).',
    };
  const endDate = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(endDate.getTime())) return { ok: false, message: 'Enter a valid date.' };
  if (endDate.getTime() <= now.getTime())
    return { ok: false, message: 'The end date must be in the future.' };
  if (maxDays !== null && endDate.getTime() > now.getTime() + maxDays * DAY_MS)
    return {
      ok: false,
      message:
        `The end date cannot be more than ${maxDays} days ahead: the offering's maximum lease ` +
        `ends ${new Date(now.getTime() + maxDays * DAY_MS).toISOString()}.`,
    };
  return { ok: true, endDate };
}

/**
 * The warnings due now for a resource ending at `endDate`: each lead time (seconds before the end)
 * that has been reached and was not given yet. A lead already past when the end date was set is
 * still given once (a 1-day warning for an end date set 3 hours ahead). Pure.
 */
export function dueWarnings(
  endDate: Date,
  given: readonly number[],
  leadsSeconds: readonly number[],
  now: Date,
): number[] {
  return leadsSeconds.filter(
    (lead) => !given.includes(lead) && now.getTime() >= endDate.getTime() - lead * 1000,
  );
}
