import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * How many password guesses there are, in fixed windows, counted three ways:
 * - per username from one address: a few, so one client's typos lock only that client out;
 * - per username from any address: more, but a bound, so rotating addresses (a botnet, or forged
 *   `X-Forwarded-For` behind a careless proxy) does not give unlimited guesses at one account;
 * - per address across usernames: more again, to slow spraying one password over many accounts
 *   without locking out an office behind one NAT address.
 * An attempt is counted before the password is checked, so parallel guesses cannot all slip in
 * before the count. A success starts its username afresh from its address and gives the username's
 * budget its attempt back, but never refunds the address: otherwise logging in to one's own
 * account between guesses at others would make the address budget endless.
 */
export const LOGIN_LIMITS = {
  perUsernameFromAddress: 5,
  perUsername: 20,
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

/** The address that counts a username's attempts from every address (no real address reads so). */
export const ANY_ADDRESS = '*';

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

/**
 * The counter key of a client address. IPv4 clients of a dual-stack socket (`::ffff:10.0.0.1`) count
 * as their IPv4 address; an IPv6 client counts as its /64, since one host is routinely given a
 * whole /64 and could otherwise try each guess from a fresh address. Anything else as given.
 */
export function normaliseAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  if (!ipaddr.IPv6.isValid(lower)) return lower;
  const v6 = ipaddr.IPv6.parse(lower);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
