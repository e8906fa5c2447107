import { ApiSystem } from '../support/api-system';
import { rememberSecret } from '../support/secret-scan';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;
const PASSWORD = 'proxy-Passw0rd-2026';
const WRONG = 'proxy-Wrong-guess-1';

/**
 * Login throttling behind a reverse proxy: the gateway hears every client from the proxy's address
 * (127.0.0.1 here) and believes `X-Forwarded-For` only because TRUSTED_PROXIES names the proxy.
 */
describe('login throttling behind a trusted proxy (TRUSTED_PROXIES, X-Forwarded-For)', () => {
  let system: ApiSystem;

  const login = (username: string, password: string, client?: string) =>
    system.call<Json>(
      null,
      'POST',
      '/api-auth/password/',
      { username, password },
      client === undefined ? {} : { 'X-Forwarded-For': client },
    );

  async function newUser(username: string): Promise<void> {
    const user = await system.ok(system.staffToken, 'POST', '/api/users/', { username });
    await system.ok(system.staffToken, 'POST', `/api/users/${user.uuid as string}/change_password/`, {
      new_password: PASSWORD,
    });
  }

  beforeAll(async () => {
    rememberSecret(PASSWORD, 'proxy password');
    system = await ApiSystem.start('login-proxy', { gatewayEnv: { TRUSTED_PROXIES: '127.0.0.1/32, ::1' } });
    for (const name of ['victim', 'rotated', 'sprayer', 'untrusted']) await newUser(name);
  });

  afterAll(async () => {
    await system?.stop();
  });

  it("one client's guesses do not lock another client behind the same proxy out", async () => {
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await login('victim', WRONG, '198.51.100.1')).status).toBe(400);
    expect((await login('victim', PASSWORD, '198.51.100.1')).status).toBe(429);
    // The real user, at another address behind the same proxy, still logs in.
    expect((await login('victim', PASSWORD, '198.51.100.2')).status).toBe(200);
    // The left-most entries are the client's own writing: forging them moves nothing.
    expect((await login('victim', PASSWORD, '10.9.9.9, 198.51.100.1')).status).toBe(429);
  });

  it('rotating X-Forwarded-For does not multiply the guesses at one username: its budget holds across addresses', async () => {
    for (let attempt = 1; attempt <= 20; attempt++)
      expect((await login('rotated', WRONG, `203.0.113.${attempt}`)).status).toBe(400);
    const refused = await login('rotated', WRONG, '203.0.113.99');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    // The right password too, from a fresh address: the check never runs while the budget is spent.
    expect((await login('rotated', PASSWORD, '203.0.113.100')).status).toBe(429);
  });

  it("a successful login does not refund the address's budget: logging in to one's own account between guesses buys none", async () => {
    const sprayer = '192.0.2.50';
    // 25 guesses at 5 usernames (5 each, within every per-username budget), each followed by a
    // good login to the sprayer's own account: 50 attempts from one address.
    for (let round = 0; round < 25; round++) {
      expect((await login(`sprayed-${round % 5}`, WRONG, sprayer)).status).toBe(400);
      expect((await login('sprayer', PASSWORD, sprayer)).status).toBe(200);
    }
    expect((await login('sprayed-new', WRONG, sprayer)).status).toBe(429);
    expect((await login('sprayer', PASSWORD, sprayer)).status).toBe(429);
  });

  // Last: it restarts the gateway trusting no proxy (the default).
  it('without TRUSTED_PROXIES, X-Forwarded-For is ignored: rotating it buys nothing from the same peer', async () => {
    await system.restartGateway({ TRUSTED_PROXIES: '' });
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await login('untrusted', WRONG, `198.51.100.${100 + attempt}`)).status).toBe(400);
    expect((await login('untrusted', PASSWORD, '198.51.100.200')).status).toBe(429);
  });
});
