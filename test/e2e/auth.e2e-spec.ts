import { createHash } from 'node:crypto';
import { ApiSystem } from '../support/api-system';
import { rawHttp, rawRequest } from '../support/raw-http';
import { findLeaks, leaksIn, rememberSecret, scanScope } from '../support/secret-scan';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;
const BAD_LOGIN = { non_field_errors: ['Unable to log in with provided credentials.'] };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Passwords as people type them; each remembered, so the scan below looks for it everywhere.
const PASSWORDS = {
  alice: 'alice-Secret-2026',
  aliceNew: 'alice-Changed-2027',
  bob: 'bob-Passw0rd-xyz',
  target: 'target-Passw0rd-1',
  carol: 'carol-Passw0rd-abc',
  carolNew: 'carol-Changed-def',
  carolByStaff: 'carol-SetByStaff-ghi',
  wrong: 'definitely-Wrong-42',
};

describe('tokens and passwords through the gateway: login, lifetime, refresh, revoke, throttling', () => {
  let system: ApiSystem;
  const uuid: Record<string, string> = {};

  const login = (username: string, password: string) =>
    system.call<Json>(null, 'POST', '/api-auth/password/', { username, password });

  async function tokenOf(username: string, password: string): Promise<string> {
    const answer = await login(username, password);
    if (answer.status !== 200)
      throw new Error(`login ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.token as string;
  }

  async function newUser(username: string, password?: string): Promise<string> {
    const user = await system.ok(system.staffToken, 'POST', '/api/users/', { username });
    if (password)
      await system.ok(system.staffToken, 'POST', `/api/users/${user.uuid as string}/change_password/`, {
        new_password: password,
      });
    return user.uuid as string;
  }

  const me = (token: string) => system.call<Json>(token, 'GET', '/api/users/me/');

  beforeAll(async () => {
    for (const [name, password] of Object.entries(PASSWORDS)) rememberSecret(password, `password ${name}`);
    system = await ApiSystem.start('auth');
    rememberSecret(system.staffToken, 'create-staff token');
    uuid.alice = await newUser('alice', PASSWORDS.alice);
    uuid.bob = await newUser('bob', PASSWORDS.bob);
    uuid.nopass = await newUser('no-password');
  });

  afterAll(async () => {
    await system?.stop();
  });

  describe('login', () => {
    it('answers a token for the right password, as Waldur: {"token": "<40 hex>"}, not to be cached', async () => {
      const answer = await login('alice', PASSWORDS.alice);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) as string });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const token = answer.body.token as string;
      expect((await me(token)).body).toMatchObject({ username: 'alice' });
      // Stored as its hash only, with an expiry one lifetime (1 hour by default) away.
      const [row] = await system.sql<{ expires_in: number }>(
        `SELECT extract(epoch FROM expires_at - now())::int AS expires_in FROM marketplace.api_tokens WHERE key_hash = $1`,
        [sha256(token)],
      );
      expect(row.expires_in).toBeGreaterThan(3_500);
      expect(row.expires_in).toBeLessThanOrEqual(3_600);
    });

    it('answers a wrong password, an unknown user, a user without a password and an inactive one alike: 400, one message', async () => {
      const inactive = await newUser('inactive-user', PASSWORDS.target);
      await system.ok(system.staffToken, 'PATCH', `/api/users/${inactive}/`, { is_active: false });
      const answers = await Promise.all([
        login('alice', PASSWORDS.wrong),
        login('nobody-at-all', PASSWORDS.wrong),
        login('no-password', PASSWORDS.wrong),
        login('inactive-user', PASSWORDS.target),
      ]);
      for (const answer of answers)
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: BAD_LOGIN });
    });

    it('names the missing fields and refuses a blank username', async () => {
      expect(await system.call(null, 'POST', '/api-auth/password/', {})).toMatchObject({
        status: 400,
        body: { username: ['This field is required.'], password: ['This field is required.'] },
      });
      expect((await login('  ', 'x')).body).toEqual({ username: ['This field may not be blank.'] });
    });

    it('stores passwords as salted scrypt hashes with their parameters, and never returns them', async () => {
      const same = await newUser('same-password-as-alice', PASSWORDS.alice);
      const rows = await system.sql<{ username: string; password_hash: string }>(
        `SELECT username, password_hash FROM marketplace.users WHERE uuid = ANY($1)`,
        [[uuid.alice, same]],
      );
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
        expect(row.password_hash).not.toContain(PASSWORDS.alice);
      }
      expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
      const user = await system.ok(system.staffToken, 'GET', `/api/users/${uuid.alice}/`);
      expect(Object.keys(user).filter((key) => /password|hash/i.test(key))).toEqual([]);
    });
  });

  describe('change_password', () => {
    it('a user changes their own, giving the current one; the old one stops working', async () => {
      const token = await tokenOf('alice', PASSWORDS.alice);
      const path = `/api/users/${uuid.alice}/change_password/`;
      expect(await system.call(token, 'POST', path, { new_password: PASSWORDS.aliceNew })).toMatchObject({
        status: 400,
        body: { current_password: ['This field is required.'] },
      });
      expect(
        await system.call(token, 'POST', path, {
          new_password: PASSWORDS.aliceNew,
          current_password: PASSWORDS.wrong,
        }),
      ).toMatchObject({ status: 400, body: { current_password: ['Invalid password.'] } });
      expect(
        await system.call(token, 'POST', path, {
          new_password: PASSWORDS.aliceNew,
          current_password: PASSWORDS.alice,
        }),
      ).toMatchObject({ status: 200, body: { detail: 'Password has been successfully updated.' } });
      expect((await login('alice', PASSWORDS.alice)).body).toEqual(BAD_LOGIN);
      expect((await login('alice', PASSWORDS.aliceNew)).status).toBe(200);
    });

    it("a user's own change signs out every other token of theirs and keeps the one it was made with", async () => {
      uuid.carol = await newUser('carol', PASSWORDS.carol);
      const [used, other] = [
        await tokenOf('carol', PASSWORDS.carol),
        await tokenOf('carol', PASSWORDS.carol),
      ];
      expect(
        await system.call(used, 'POST', `/api/users/${uuid.carol}/change_password/`, {
          new_password: PASSWORDS.carolNew,
          current_password: PASSWORDS.carol,
        }),
      ).toMatchObject({ status: 200 });
      // A token stolen before the change is worth nothing after it.
      expect((await me(other)).body).toEqual({ detail: 'Invalid token.' });
      expect((await me(used)).body).toMatchObject({ username: 'carol' });
    });

    it("staff setting a user's password revokes every token of that user, and none of staff's", async () => {
      const [first, second] = [
        await tokenOf('carol', PASSWORDS.carolNew),
        await tokenOf('carol', PASSWORDS.carolNew),
      ];
      await system.ok(system.staffToken, 'POST', `/api/users/${uuid.carol}/change_password/`, {
        new_password: PASSWORDS.carolByStaff,
      });
      for (const token of [first, second]) expect((await me(token)).status).toBe(401);
      expect((await me(system.staffToken)).status).toBe(200);
      expect(
        await system.sql(`SELECT 1 FROM marketplace.api_tokens WHERE user_uuid = $1 AND revoked_at IS NULL`, [
          uuid.carol,
        ]),
      ).toHaveLength(0);
    });

    it('deactivation revokes the tokens: reactivated, the user must log in again', async () => {
      const token = await tokenOf('carol', PASSWORDS.carolByStaff);
      await system.ok(system.staffToken, 'PATCH', `/api/users/${uuid.carol}/`, { is_active: false });
      expect((await me(token)).status).toBe(401);
      await system.ok(system.staffToken, 'PATCH', `/api/users/${uuid.carol}/`, { is_active: true });
      expect((await me(token)).body).toEqual({ detail: 'Invalid token.' });
      expect((await me(await tokenOf('carol', PASSWORDS.carolByStaff))).status).toBe(200);
    });

    it("refuses weak passwords with Django's messages", async () => {
      const path = `/api/users/${uuid.bob}/change_password/`;
      expect((await system.call(system.staffToken, 'POST', path, { new_password: 'short1' })).body).toEqual({
        new_password: ['This password is too short. It must contain at least 8 characters.'],
      });
      expect(
        (await system.call(system.staffToken, 'POST', path, { new_password: '1234567890' })).body,
      ).toEqual({
        new_password: ['This password is entirely numeric.'],
      });
    });

    it("only staff set another user's password: 403 where the caller sees the user, 404 where not", async () => {
      const customer = await system.ok(system.staffToken, 'POST', '/api/customers/', { name: 'Shared org' });
      for (const user of [uuid.alice, uuid.bob])
        await system.ok(system.staffToken, 'POST', `/api/customers/${customer.uuid as string}/add_user/`, {
          user,
          role: 'CUSTOMER.OWNER',
        });
      const alice = await tokenOf('alice', PASSWORDS.aliceNew);
      const body = { new_password: PASSWORDS.wrong };
      expect((await system.call(alice, 'POST', `/api/users/${uuid.bob}/change_password/`, body)).status).toBe(
        403,
      );
      expect(
        (await system.call(alice, 'POST', `/api/users/${uuid.nopass}/change_password/`, body)).status,
      ).toBe(404);
      expect((await login('bob', PASSWORDS.bob)).status).toBe(200);
    });
  });

  describe('token lifetime', () => {
    it('an expired token is 401 "Token has expired."', async () => {
      const token = await tokenOf('bob', PASSWORDS.bob);
      await system.sql(
        `UPDATE marketplace.api_tokens SET expires_at = now() - interval '1 second' WHERE key_hash = $1`,
        [sha256(token)],
      );
      const answer = await me(token);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 401,
        body: { detail: 'Token has expired.' },
      });
      expect(answer.headers.get('www-authenticate')).toBe('Token');
    });

    it('slides: a use moves the expiry a lifetime ahead, at most once a minute (one write, not one per request)', async () => {
      const token = await tokenOf('bob', PASSWORDS.bob);
      const expiry = async () =>
        (
          await system.sql<{ expires_at: Date }>(
            'SELECT expires_at FROM marketplace.api_tokens WHERE key_hash = $1',
            [sha256(token)],
          )
        )[0].expires_at.getTime();
      // As if it was last renewed 59 minutes ago: 1 minute left.
      await system.sql(
        `UPDATE marketplace.api_tokens SET expires_at = now() + interval '1 minute' WHERE key_hash = $1`,
        [sha256(token)],
      );
      const before = await expiry();
      expect((await me(token)).status).toBe(200);
      const renewed = await expiry();
      expect(renewed - before).toBeGreaterThan(58 * 60_000);
      expect((await me(token)).status).toBe(200);
      expect(await expiry()).toBe(renewed);
    });
  });

  describe('refresh_token and revocation', () => {
    it('a refreshed token replaces the old at once: the old is 401, the new works', async () => {
      const old = await tokenOf('bob', PASSWORDS.bob);
      const answer = await system.call<Json>(old, 'POST', `/api/users/${uuid.bob}/refresh_token/`);
      expect(answer.status).toBe(200);
      const fresh = answer.body.token as string;
      expect(fresh).toMatch(/^[0-9a-f]{40}$/);
      expect((await me(old)).body).toEqual({ detail: 'Invalid token.' });
      expect((await me(fresh)).body).toMatchObject({ username: 'bob' });
    });

    it("refreshing another user's token is staff's: others get 403 or 404", async () => {
      const alice = await tokenOf('alice', PASSWORDS.aliceNew);
      expect((await system.call(alice, 'POST', `/api/users/${uuid.bob}/refresh_token/`)).status).toBe(403);
      expect((await system.call(alice, 'POST', `/api/users/${uuid.nopass}/refresh_token/`)).status).toBe(404);
      const bob = await tokenOf('bob', PASSWORDS.bob);
      const byStaff = await system.call<Json>(
        system.staffToken,
        'POST',
        `/api/users/${uuid.bob}/refresh_token/`,
      );
      expect(byStaff.status).toBe(200);
      expect((await me(bob)).status).toBe(401);
      expect((await me(byStaff.body.token as string)).status).toBe(200);
    });

    it("staff revoke all of a user's tokens: each is 401 at once", async () => {
      const [first, second] = [await tokenOf('bob', PASSWORDS.bob), await tokenOf('bob', PASSWORDS.bob)];
      expect((await me(first)).status).toBe(200);
      const answer = await system.call(system.staffToken, 'POST', `/api/users/${uuid.bob}/revoke_tokens/`);
      expect(answer.status).toBe(204);
      for (const token of [first, second])
        expect((await me(token)).body).toEqual({ detail: 'Invalid token.' });
      const live = await system.sql(
        `SELECT 1 FROM marketplace.api_tokens WHERE user_uuid = $1 AND revoked_at IS NULL`,
        [uuid.bob],
      );
      expect(live).toHaveLength(0);
    });

    it('create-staff run again (as every `npm start` does) replaces the demo token rather than adding one', async () => {
      const first = await system.createStaff('demo-admin');
      const second = await system.createStaff('demo-admin');
      expect((await me(first)).status).toBe(401);
      expect((await me(second)).body).toMatchObject({ username: 'demo-admin', is_staff: true });
      const live = await system.sql(
        `SELECT 1 FROM marketplace.api_tokens t JOIN marketplace.users u ON u.uuid = t.user_uuid
         WHERE u.username = 'demo-admin' AND t.revoked_at IS NULL`,
      );
      expect(live).toHaveLength(1);
    });
  });

  describe('throttling of password guesses', () => {
    it('429 with Retry-After after 5 failures for one username from one address, the right password included, across a gateway restart', async () => {
      await newUser('target', PASSWORDS.target);
      for (let attempt = 1; attempt <= 5; attempt++)
        expect((await login('target', PASSWORDS.wrong)).status).toBe(400);
      const refused = await login('target', PASSWORDS.wrong);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        detail: expect.stringMatching(
          /^Request was throttled\. Expected available in \d+ seconds\.$/,
        ) as string,
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // The count lives in Postgres, not in a gateway: a restarted (or a second) gateway counts on.
      await system.restartGateway();
      expect((await login('target', PASSWORDS.target)).status).toBe(429);
      // Another username from the same address still has its attempts.
      expect((await login('bob', PASSWORDS.bob)).status).toBe(200);
      const rows = await system.sql<{ username_hash: string }>(
        'SELECT username_hash FROM marketplace.login_attempts',
      );
      expect(rows.map((row) => row.username_hash)).toContain(sha256('target'));
      expect(JSON.stringify(rows)).not.toContain('target');
    });
  });

  describe('no leaks', () => {
    let owner: string;
    let stranger: string;
    let org: string;

    beforeAll(async () => {
      const ownerUuid = await newUser('leak-owner', PASSWORDS.target);
      stranger = await newUser('leak-stranger');
      org = (await system.ok(system.staffToken, 'POST', '/api/customers/', { name: 'Leak org' }))
        .uuid as string;
      await system.ok(system.staffToken, 'POST', `/api/customers/${org}/add_user/`, {
        user: ownerUuid,
        role: 'CUSTOMER.OWNER',
      });
      const hidden = (await system.ok(system.staffToken, 'POST', '/api/customers/', { name: 'Hidden org' }))
        .uuid as string;
      await system.ok(system.staffToken, 'POST', `/api/customers/${hidden}/add_user/`, {
        user: stranger,
        role: 'CUSTOMER.OWNER',
      });
      uuid.hidden = hidden;
      owner = await tokenOf('leak-owner', PASSWORDS.target);
    });

    it('adding a user the caller cannot see answers as for a user that does not exist: no name, no email', async () => {
      const answer = (user: string) =>
        system.call(owner, 'POST', `/api/customers/${org}/add_user/`, { user, role: 'CUSTOMER.OWNER' });
      const hiddenUser = await answer(stranger);
      const noUser = await answer('6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11');
      expect({ status: hiddenUser.status, body: hiddenUser.body }).toEqual({
        status: noUser.status,
        body: noUser.body,
      });
      expect(hiddenUser).toMatchObject({
        status: 400,
        body: { user: ['Invalid hyperlink - Object does not exist.'] },
      });
      expect((await system.call(owner, 'GET', `/api/users/${stranger}/`)).status).toBe(404);
    });

    it('a list filter on an organisation the caller cannot see answers exactly as one on a non-existent organisation', async () => {
      // The stranger is visible to the owner once they share a project: the filter must still say nothing about Hidden org.
      const project = (await system.ok(owner, 'POST', '/api/projects/', { name: 'Shared', customer: org }))
        .uuid as string;
      await system.ok(system.staffToken, 'POST', `/api/projects/${project}/add_user/`, {
        user: stranger,
        role: 'PROJECT.MEMBER',
      });
      const shape = async (path: string) => {
        const answer = await system.call(owner, 'GET', path);
        return { status: answer.status, body: answer.body, count: answer.headers.get('x-result-count') };
      };
      for (const list of ['/api/users/', '/api/projects/']) {
        const hidden = await shape(`${list}?customer_uuid=${uuid.hidden}`);
        const missing = await shape(`${list}?customer_uuid=6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11`);
        expect(hidden).toEqual(missing);
        expect(hidden).toEqual({ status: 200, body: [], count: '0' });
      }
      const staffView = await system.ok<Json[]>(
        system.staffToken,
        'GET',
        `/api/users/?customer_uuid=${uuid.hidden}`,
      );
      expect(staffView.map((user) => user.username)).toEqual(['leak-stranger']);
    });
  });

  describe('HTTP hygiene', () => {
    it('a wrong method is 405 with Allow; OPTIONS lists the methods', async () => {
      const put = await system.call(system.staffToken, 'PUT', '/api/customers/', { name: 'x' });
      expect({ status: put.status, body: put.body }).toEqual({
        status: 405,
        body: { detail: 'Method "PUT" not allowed.' },
      });
      expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
      const login = await system.call(null, 'GET', '/api-auth/password/');
      expect(login.status).toBe(405);
      expect(login.headers.get('allow')).toBe('OPTIONS, POST');
      const options = await system.call(null, 'OPTIONS', `/api/users/${uuid.bob}/`);
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
    });

    it('no X-Powered-By; nosniff, no-store and a deny-all CSP on API answers; an unknown path is a JSON 404', async () => {
      for (const answer of [
        await system.call(system.staffToken, 'GET', '/api/customers/'),
        await system.call(null, 'GET', '/api/customers/'),
        await system.call(null, 'GET', '/no/such/path'),
      ]) {
        expect(answer.headers.get('x-powered-by')).toBeNull();
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(answer.headers.get('content-security-policy')).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
      }
      expect(await system.call(null, 'GET', '/no/such/path')).toMatchObject({
        status: 404,
        body: { detail: 'Not found.' },
      });
    });

    it('the docs page has a strict CSP: its own scripts and styles only, no inline code, no framing', async () => {
      const page = await fetch(`${system.base}/api/docs/`);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
      expect(await page.text()).not.toMatch(/<script>[^<]/);
    });

    it('bounds bodies (413), content types (415), JSON (400) and URLs (414, 400), each in JSON', async () => {
      const token = system.staffToken;
      const post = (body: string, headers: Record<string, string> = {}) =>
        system.call<Json>(token, 'POST', '/api/customers/', body, headers);
      expect((await post(JSON.stringify({ name: 'x'.repeat(300_000) }))).status).toBe(413);
      expect(
        (await post('{"name":"x"}', { 'Content-Type': 'application/json; charset=latin1' })).status,
      ).toBe(415);
      expect((await post('{"name":"x"}', { 'Content-Encoding': 'gzip' })).status).toBe(415);
      expect((await post('{"name":"a","name":"b"}')).body).toEqual({
        detail: 'JSON parse error - key "name" appears twice in one object.',
      });
      expect((await post(`{"name":${'['.repeat(40)}${']'.repeat(40)}}`)).body).toEqual({
        detail: 'JSON parse error - nested deeper than 32 levels.',
      });
      expect((await system.call(token, 'GET', `/api/customers/?name=${'x'.repeat(5000)}`)).status).toBe(414);
      const many = Array.from({ length: 70 }, (_, index) => `f${index}=1`).join('&');
      expect((await system.call(token, 'GET', `/api/customers/?${many}`)).status).toBe(400);
    });

    it('answers what Node refuses before there is a request in JSON too: 431 for huge headers, 400 for broken ones', async () => {
      const huge = await rawRequest(
        system.port,
        rawHttp('GET', '/api/customers/', [
          ['Host', 'x'],
          ['X-Big', 'y'.repeat(20_000)],
          ['Connection', 'close'],
        ]),
      );
      expect(huge).toMatchObject({
        status: 431,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(JSON.parse(huge!.body)).toEqual({ detail: 'Request header fields too large.' });
      const broken = await rawRequest(system.port, 'GET /api/customers/ HTTP/1.1\r\nHost x\r\n\r\n');
      expect(broken?.status).toBe(400);
      expect(JSON.parse(broken!.body)).toEqual({ detail: 'Malformed HTTP request.' });
      const lying = await rawRequest(
        system.port,
        rawHttp('POST', '/api/customers/', [
          ['Host', 'x'],
          ['Content-Length', '5'],
          ['Content-Length', '6'],
          ['Connection', 'close'],
        ]),
      );
      expect(lying?.status).toBe(400);
    });
  });

  describe('secrets', () => {
    it('the scan finds a secret planted in a log line or an answer (so a clean scan means something)', () => {
      const secrets = new Map([['0123456789abcdef0123456789abcdef01234567', 'a token']]);
      expect(
        leaksIn(secrets, [
          {
            where: 'log',
            text: JSON.stringify({ msg: 'auth', token: '0123456789abcdef0123456789abcdef01234567' }),
          },
          { where: 'answer', text: '{"detail":"fine"}' },
        ]),
      ).toEqual([{ secret: 'a token', where: 'log' }]);
    });

    it('no token or password used in this suite appears in any log line of the apps or in any answer but the one issuing it', async () => {
      const leaks = await findLeaks();
      expect(leaks).toEqual([]);
      const scope = scanScope();
      expect(scope.secrets).toBeGreaterThan(20);
      expect(scope.logLines).toBeGreaterThan(10);
      expect(scope.answers).toBeGreaterThan(60);
    });
  });

  // Last: it restarts the order service with a 2-second lifetime.
  it('TOKEN_LIFETIME_S bounds a token left unused: after it, 401 "Token has expired."', async () => {
    await system.restartOrderService({ TOKEN_LIFETIME_S: '2' });
    const token = await tokenOf('alice', PASSWORDS.aliceNew);
    expect((await me(token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await me(token)).body).toEqual({ detail: 'Token has expired.' });
  });
});
