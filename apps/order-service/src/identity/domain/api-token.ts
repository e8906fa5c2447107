import { createHash, randomBytes } from 'node:crypto';

/**
 * API token keys: 160 random bits written as 40 hex characters (Waldur's token length). Only the
 * sha256 of a key is stored: the key is high-entropy, so a fast unsalted hash is safe to compare
 * by lookup, and a stolen table holds nothing that authenticates.
 */
export function generateTokenKey(): string {
  return randomBytes(20).toString('hex');
}

export function hashTokenKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export type TokenRefusal = 'Invalid token.' | 'Token has expired.' | 'User inactive or deleted.';

/**
 * Why a stored token no longer authenticates, or null when it does. Revoked reads as unknown. A
 * deactivated user's tokens are revoked too; while the user stays inactive their holder is told
 * so (Django REST framework's message), and once reactivated the old tokens are simply invalid.
 */
export function tokenRefusal(
  token: { expiresAt: Date; revokedAt: Date | null } | null,
  user: { isActive: boolean } | null,
  now: Date,
): TokenRefusal | null {
  if (!token) return 'Invalid token.';
  if (!user || !user.isActive) return 'User inactive or deleted.';
  if (token.revokedAt) return 'Invalid token.';
  if (token.expiresAt.getTime() <= now.getTime()) return 'Token has expired.';
  return null;
}

/** Waldur's debounce: a token's expiry moves forward on use, but at most once a minute (one write, not one per request). */
export const RENEWAL_INTERVAL_MS = 60_000;

/**
 * The new expiry of a token used at `now`, or null when it was renewed less than a minute ago. The
 * last renewal is read from the expiry itself (it was set to renewal + lifetime), so no column is needed.
 */
export function renewedExpiry(expiresAt: Date, lifetimeMs: number, now: Date): Date | null {
  const next = now.getTime() + lifetimeMs;
  return next - expiresAt.getTime() >= RENEWAL_INTERVAL_MS ? new Date(next) : null;
}
