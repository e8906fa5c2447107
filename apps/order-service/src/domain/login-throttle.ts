import { createHash } from 'node:crypto';

/**
 * How many password guesses one address gets: a few per username, more across usernames (to slow
 * spraying one password over many accounts without locking out an office behind one NAT address),
 * in fixed windows. An attempt is counted before the password is checked, so parallel guesses
 * cannot all slip in before the count; a success gives its attempt back.
 */
export const LOGIN_LIMITS = {
  perUsername: 5,
  perAddress: 50,
  windowMs: 15 * 60_000,
} as const;

/** One counter's state after counting an attempt. */
export interface AttemptCount {
  attempts: number;
  windowStarted: Date;
}

/** The counter key of a username: its sha256, so a password typed as a username is not stored. */
export function usernameKey(username: string): string {
  return createHash('sha256').update(username, 'utf8').digest('hex');
}

/** The key that counts every username tried from an address. */
export const ANY_USERNAME = usernameKey('');

/** Seconds until the window of an exhausted counter ends (at least 1), or null while attempts remain. */
export function retryAfterSeconds(
  count: AttemptCount,
  limit: number,
  now: Date,
  windowMs: number = LOGIN_LIMITS.windowMs,
): number | null {
  if (count.attempts <= limit) return null;
  const endsAt = count.windowStarted.getTime() + windowMs;
  return Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
}

/** IPv4 clients of a dual-stack socket read as `::ffff:10.0.0.1`: one address, one counter. */
export function normaliseAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice('::ffff:'.length) : lower;
}
