import {
  ANY_USERNAME,
  LOGIN_LIMITS,
  normaliseAddress,
  retryAfterSeconds,
  usernameKey,
} from './login-throttle';

describe('login throttling policy', () => {
  const start = new Date('2026-11-30T12:00:00Z');
  const later = (ms: number) => new Date(start.getTime() + ms);

  it('lets the limit of attempts through, then says how long until the window ends', () => {
    const limit = LOGIN_LIMITS.perUsernameFromAddress;
    expect(retryAfterSeconds({ attempts: limit, windowStarted: start }, limit, later(1_000))).toBeNull();
    expect(retryAfterSeconds({ attempts: limit + 1, windowStarted: start }, limit, later(1_000))).toBe(899);
    expect(retryAfterSeconds({ attempts: limit + 1, windowStarted: start }, limit, later(899_500))).toBe(1);
  });

  it('never asks to wait less than a second', () => {
    expect(
      retryAfterSeconds({ attempts: 99, windowStarted: start }, 5, later(LOGIN_LIMITS.windowMs + 5)),
    ).toBe(1);
  });

  it('keys usernames by their hash (a password typed as a username is not stored) and all usernames by one key', () => {
    expect(usernameKey('alice')).toMatch(/^[0-9a-f]{64}$/);
    expect(usernameKey('alice')).not.toBe(usernameKey('Alice'));
    expect(ANY_USERNAME).toBe(usernameKey(''));
  });

  it('counts an IPv4 client on a dual-stack socket as its IPv4 address', () => {
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseAddress('::ffff:a01:203')).toBe('10.1.2.3');
    expect(normaliseAddress('192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts an IPv6 client as its /64, which one host can fill with addresses', () => {
    // One customer's /64 holds 2^64 addresses: counted per address, it has endless budgets.
    expect(normaliseAddress('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(normaliseAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(normaliseAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(normaliseAddress('::1')).toBe('::/64');
    // A zone id names an interface, not a client; the key still fits the column (varchar 64).
    expect(normaliseAddress(`fe80::1%${'x'.repeat(80)}`)).toBe('fe80::/64');
    expect(normaliseAddress('unknown')).toBe('unknown');
  });
});
