import { generateTokenKey, hashTokenKey, renewedExpiry, tokenRefusal } from './api-token';

describe('API tokens', () => {
  it('keys are 40 hex characters of fresh randomness', () => {
    const keys = new Set(Array.from({ length: 100 }, generateTokenKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{40}$/);
  });

  it('stores the sha256 of the key, never the key', () => {
    const key = generateTokenKey();
    const hash = hashTokenKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key);
    expect(hashTokenKey(key)).toBe(hash);
    expect(hashTokenKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  const now = new Date('2026-11-30T12:00:00Z');
  const live = { expiresAt: new Date('2026-11-30T13:00:00Z'), revokedAt: null };
  const active = { isActive: true };

  it.each([
    ['a live token of an active user', live, active, null],
    ['an unknown token', null, active, 'Invalid token.'],
    ['a revoked token', { ...live, revokedAt: new Date('2026-11-30T11:00:00Z') }, active, 'Invalid token.'],
    [
      'an expired token',
      { ...live, expiresAt: new Date('2026-11-30T12:00:00Z') },
      active,
      'Token has expired.',
    ],
    ['a token not yet expired', { ...live, expiresAt: new Date('2026-11-30T12:00:01Z') }, active, null],
    ['an inactive user', live, { isActive: false }, 'User inactive or deleted.'],
    ['a deleted user', live, null, 'User inactive or deleted.'],
    [
      'a token revoked with its user deactivated',
      { ...live, revokedAt: new Date('2026-11-30T11:00:00Z') },
      { isActive: false },
      'User inactive or deleted.',
    ],
  ])('%s', (_name, token, user, refusal) => {
    expect(tokenRefusal(token, user, now)).toBe(refusal);
  });
});

describe('sliding renewal', () => {
  const hour = 3_600_000;
  const now = new Date('2026-11-30T12:00:00Z');
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

  it('moves the expiry to now + lifetime once the last renewal is a minute old', () => {
    expect(renewedExpiry(at(hour - 60_000), hour, now)).toEqual(at(hour));
    expect(renewedExpiry(at(10 * 60_000), hour, now)).toEqual(at(hour));
  });

  it('writes nothing within a minute of the last renewal', () => {
    expect(renewedExpiry(at(hour - 59_999), hour, now)).toBeNull();
    expect(renewedExpiry(at(hour), hour, now)).toBeNull();
  });

  it('never shortens a token issued with a longer lifetime than today', () => {
    expect(renewedExpiry(at(2 * hour), hour, now)).toBeNull();
  });
});
