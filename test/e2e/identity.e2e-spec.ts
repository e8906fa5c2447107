import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { freePort } from '../support/free-port';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { AppProcess } from '../support/app-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const REQUEST_TIMEOUT_MS = 1_500;
type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

describe('identity and access through the gateway: users, tokens, customers, projects, roles', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let orderService: AppProcess;
  let gateway: AppProcess;
  let base: string;
  const token: Record<string, string> = {};
  const uuid: Record<string, string> = {};

  async function call(
    who: string | null,
    method: string,
    path: string,
    body?: unknown,
    raw?: string,
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (who) headers.Authorization = `Token ${token[who]}`;
    if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: response.headers,
    };
  }

  async function ok<T = Json>(who: string, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await call(who, method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  }

  async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      return (await pg.query(text, values)).rows as T[];
    } finally {
      await pg.end();
    }
  }

  /** Tokens for users other than the first staff one, straight into the table (auth.e2e-spec logs in through the API). */
  async function issueToken(name: string, userUuid: string): Promise<void> {
    token[name] = randomBytes(20).toString('hex');
    const hash = createHash('sha256').update(token[name]).digest('hex');
    await sql(
      `INSERT INTO marketplace.api_tokens (key_hash, user_uuid, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [hash, userUuid],
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase('identity');
    nats = await createTestNats('identity');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    const createStaff = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/create-staff.js'), 'root'],
      { cwd: ROOT, env: { ...process.env, ...env } },
    );
    token.staff = createStaff.stdout.trim().split('\n').pop()!;
    orderService = new AppProcess('order-service', env);
    gateway = new AppProcess('gateway', {
      ...env,
      GATEWAY_PORT: String(port),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    await Promise.all([orderService.start(), gateway.start('gateway listening')]);

    uuid.staff = (await ok('staff', 'GET', '/api/users/me/')).uuid as string;
    for (const name of ['owner', 'manager', 'member', 'other']) {
      uuid[name] = (
        await ok('staff', 'POST', '/api/users/', { username: `${name}-user`, full_name: `The ${name}` })
      ).uuid as string;
      await issueToken(name, uuid[name]);
    }
    uuid.A = (await ok('staff', 'POST', '/api/customers/', { name: 'Org A' })).uuid as string;
    uuid.B = (await ok('staff', 'POST', '/api/customers/', { name: 'Org B' })).uuid as string;
    uuid.P1 = (
      await ok('staff', 'POST', '/api/projects/', {
        name: 'A one',
        customer: `${base}/api/customers/${uuid.A}/`,
      })
    ).uuid as string;
    uuid.P2 = (await ok('staff', 'POST', '/api/projects/', { name: 'A two', customer: uuid.A }))
      .uuid as string;
    uuid.Q1 = (await ok('staff', 'POST', '/api/projects/', { name: 'B one', customer: uuid.B }))
      .uuid as string;
    await ok('staff', 'POST', `/api/customers/${uuid.A}/add_user/`, {
      user: uuid.owner,
      role: 'CUSTOMER.OWNER',
    });
    await ok('staff', 'POST', `/api/customers/${uuid.B}/add_user/`, {
      user: uuid.other,
      role: 'CUSTOMER.OWNER',
    });
    // Staff: a user with no role yet is visible to staff only, and nobody else may add a user they
    // cannot see (the grant would show them that user). Owners and managers grant in the matrix below.
    await ok('staff', 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: `${base}/api/users/${uuid.manager}/`,
      role: 'PROJECT.MANAGER',
    });
    await ok('staff', 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: uuid.member,
      role: 'PROJECT.MEMBER',
    });
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), orderService?.stop()]);
    await nats?.close();
    await db?.drop();
  });

  const ROLES = ['staff', 'owner', 'manager', 'member', 'other', 'anonymous'] as const;
  const who = (role: (typeof ROLES)[number]) => (role === 'anonymous' ? null : role);
  const names = (body: unknown, field: string) => (body as Json[]).map((item) => item[field]).sort();

  describe('lists hold exactly what each role may see', () => {
    const expected: Record<string, { customers: string[]; projects: string[]; users: string[] } | null> = {
      staff: {
        customers: ['Org A', 'Org B'],
        projects: ['A one', 'A two', 'B one'],
        users: ['manager-user', 'member-user', 'other-user', 'owner-user', 'root'],
      },
      owner: {
        customers: ['Org A'],
        projects: ['A one', 'A two'],
        users: ['manager-user', 'member-user', 'owner-user'],
      },
      manager: {
        customers: ['Org A'],
        projects: ['A one'],
        users: ['manager-user', 'member-user', 'owner-user'],
      },
      member: {
        customers: ['Org A'],
        projects: ['A one'],
        users: ['manager-user', 'member-user', 'owner-user'],
      },
      other: { customers: ['Org B'], projects: ['B one'], users: ['other-user'] },
      anonymous: null,
    };
    it.each(ROLES)('%s', async (role) => {
      const [customers, projects, users] = await Promise.all([
        call(who(role), 'GET', '/api/customers/'),
        call(who(role), 'GET', '/api/projects/'),
        call(who(role), 'GET', '/api/users/'),
      ]);
      const want = expected[role];
      if (!want) {
        expect([customers.status, projects.status, users.status]).toEqual([401, 401, 401]);
        expect(customers.body).toEqual({ detail: 'Authentication credentials were not provided.' });
        return;
      }
      expect([customers.status, projects.status, users.status]).toEqual([200, 200, 200]);
      expect(names(customers.body, 'name')).toEqual(want.customers);
      expect(names(projects.body, 'name')).toEqual(want.projects);
      expect(names(users.body, 'username')).toEqual(want.users);
      expect(customers.headers.get('x-result-count')).toBe(String(want.customers.length));
    });
  });

  // Expected status per role, in ROLES order: staff, owner, manager, member, other, anonymous.
  const matrix: [string, (role: string) => [string, string, unknown?], number[]][] = [
    ['get customer A', () => ['GET', `/api/customers/${uuid.A}/`], [200, 200, 200, 200, 404, 401]],
    [
      'update customer A',
      () => ['PATCH', `/api/customers/${uuid.A}/`, { phone_number: '+372 555' }],
      [200, 200, 403, 403, 404, 401],
    ],
    [
      'delete customer A (which has projects)',
      () => ['DELETE', `/api/customers/${uuid.A}/`],
      [409, 403, 403, 403, 404, 401],
    ],
    [
      'create a customer',
      (role) => ['POST', '/api/customers/', { name: `Made by ${role}` }],
      [201, 403, 403, 403, 403, 401],
    ],
    ['get project A one', () => ['GET', `/api/projects/${uuid.P1}/`], [200, 200, 200, 200, 404, 401]],
    ['get project A two', () => ['GET', `/api/projects/${uuid.P2}/`], [200, 200, 404, 404, 404, 401]],
    [
      'update project A one',
      () => ['PATCH', `/api/projects/${uuid.P1}/`, { description: 'changed' }],
      [200, 200, 200, 403, 404, 401],
    ],
    ['delete project A one', () => ['DELETE', `/api/projects/${uuid.P1}/`], [-1, -1, 403, 403, 404, 401]],
    [
      'create a project in A',
      (role) => ['POST', '/api/projects/', { name: `By ${role}`, customer: uuid.A }],
      [201, 201, 403, 403, 400, 401],
    ],
    ['get the owner', () => ['GET', `/api/users/${uuid.owner}/`], [200, 200, 200, 200, 404, 401]],
    [
      'update the owner',
      () => ['PATCH', `/api/users/${uuid.owner}/`, { full_name: 'Owner Renamed' }],
      [200, 200, 403, 403, 404, 401],
    ],
    ['delete the owner', () => ['DELETE', `/api/users/${uuid.owner}/`], [-1, 403, 403, 403, 404, 401]],
    [
      'create a user',
      (role) => ['POST', '/api/users/', { username: `made-by-${role}` }],
      [201, 403, 403, 403, 403, 401],
    ],
    [
      'grant an admin role in A one',
      () => ['POST', `/api/projects/${uuid.P1}/add_user/`, { user: uuid.member, role: 'PROJECT.ADMIN' }],
      [-1, -1, 201, 403, 404, 401],
    ],
  ];

  describe.each(matrix)('%s', (_name, request, statuses) => {
    it.each(
      ROLES.map((role, index) => [role, statuses[index]] as const).filter(([, status]) => status !== -1),
    )('%s → %i', async (role, status) => {
      const [method, path, body] = request(role);
      const answer = await call(who(role), method, path, body);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status,
        body: status === 204 ? undefined : (expect.anything() as unknown),
      });
      if (status === 403)
        expect(answer.body).toEqual({ detail: 'You do not have permission to perform this action.' });
      if (status === 404) expect(answer.body).toEqual({ detail: 'Not found.' });
      if (status === 400)
        expect(answer.body).toEqual({ customer: ['Invalid hyperlink - Object does not exist.'] });
      // The grant above is withdrawn again, so later rows see the same roles.
      if (status === 201 && path.endsWith('add_user/'))
        await ok('staff', 'POST', path.replace('add_user', 'delete_user'), body);
    });
  });

  it('staff and owners delete what they may: a project, an empty customer, a user (204), and the rows go', async () => {
    const spare = await ok('owner', 'POST', '/api/projects/', { name: 'Spare', customer: uuid.A });
    expect((await call('owner', 'DELETE', `/api/projects/${spare.uuid as string}/`)).status).toBe(204);
    expect((await call('owner', 'GET', `/api/projects/${spare.uuid as string}/`)).status).toBe(404);
    const empty = await ok('staff', 'POST', '/api/customers/', { name: 'Empty' });
    expect((await call('staff', 'DELETE', `/api/customers/${empty.uuid as string}/`)).status).toBe(204);
    const doomed = await ok('staff', 'POST', '/api/users/', { username: 'doomed' });
    expect((await call('staff', 'DELETE', `/api/users/${doomed.uuid as string}/`)).status).toBe(204);
    expect(await sql('SELECT 1 FROM marketplace.users WHERE uuid = $1', [doomed.uuid])).toHaveLength(0);
  });

  it('paginates with page and page_size, Link and X-Result-Count', async () => {
    const answer = await call('staff', 'GET', '/api/users/?page=2&page_size=2');
    expect(answer.status).toBe(200);
    const count = Number(answer.headers.get('x-result-count'));
    expect(count).toBeGreaterThanOrEqual(5);
    expect(answer.body).toHaveLength(2);
    const link = answer.headers.get('link') ?? '';
    expect(link).toContain(`<${base}/api/users/?page=1&page_size=2>; rel="first"`);
    expect(link).toContain(`<${base}/api/users/?page=3&page_size=2>; rel="next"`);
    expect(link).toContain(`rel="last"`);
    const past = await call('staff', 'GET', `/api/users/?page=${count + 1}&page_size=1`);
    expect(past).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
  });

  it('filters by query parameters', async () => {
    const projects = await ok<Json[]>('staff', 'GET', `/api/projects/?customer_uuid=${uuid.B}`);
    expect(projects.map((project) => project.name)).toEqual(['B one']);
    const users = await ok<Json[]>('staff', 'GET', `/api/users/?project_uuid=${uuid.P1}`);
    expect(users.map((user) => user.username).sort()).toEqual(['manager-user', 'member-user']);
    const project = await ok('member', 'GET', `/api/projects/${uuid.P1}/`);
    expect(project).toMatchObject({
      url: `${base}/api/projects/${uuid.P1}/`,
      customer: `${base}/api/customers/${uuid.A}/`,
      customer_name: 'Org A',
    });
  });

  it('lists and revokes role grants; a second grant of the same role is a 409', async () => {
    const grants = await ok<Json[]>('owner', 'GET', `/api/projects/${uuid.P1}/list_users/`);
    expect(
      grants.map((grant) => `${grant.user_username as string} ${grant.role_name as string}`).sort(),
    ).toEqual(['manager-user PROJECT.MANAGER', 'member-user PROJECT.MEMBER']);
    const again = await call('owner', 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: uuid.member,
      role: 'PROJECT.MEMBER',
    });
    expect(again).toMatchObject({
      status: 409,
      body: { detail: 'User already has role within this scope.' },
    });
    // Staff: the owner of A cannot see `other` (owner of B only), so for them `other` does not exist.
    await ok('staff', 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: uuid.other,
      role: 'PROJECT.MEMBER',
    });
    expect((await call('other', 'GET', `/api/projects/${uuid.P1}/`)).status).toBe(200);
    expect(
      (
        await call('owner', 'POST', `/api/projects/${uuid.P1}/delete_user/`, {
          user: uuid.other,
          role: 'PROJECT.MEMBER',
        })
      ).status,
    ).toBe(204);
    expect((await call('other', 'GET', `/api/projects/${uuid.P1}/`)).status).toBe(404);
  });

  it('stores no token in clear: the token table holds sha256 hashes only', async () => {
    const rows = await sql<{ key_hash: string }>('SELECT key_hash FROM marketplace.api_tokens');
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const dump = JSON.stringify(await sql('SELECT * FROM marketplace.api_tokens'));
    for (const key of Object.values(token)) expect(dump).not.toContain(key);
    const hashes = new Set(rows.map((row) => row.key_hash));
    for (const key of Object.values(token))
      expect(hashes.has(createHash('sha256').update(key).digest('hex'))).toBe(true);
  });

  it('refuses unknown, revoked and expired tokens and inactive users with 401', async () => {
    const probe = async (key: string) =>
      (
        await fetch(`${base}/api/users/me/`, { headers: { Authorization: `Token ${key}` } })
      ).json() as Promise<Json>;
    expect(await probe('0'.repeat(40))).toEqual({ detail: 'Invalid token.' });
    await issueToken('revoked', uuid.member);
    await sql('UPDATE marketplace.api_tokens SET revoked_at = now() WHERE key_hash = $1', [
      createHash('sha256').update(token.revoked).digest('hex'),
    ]);
    expect(await probe(token.revoked)).toEqual({ detail: 'Invalid token.' });
    await issueToken('expired', uuid.member);
    await sql(
      `UPDATE marketplace.api_tokens SET expires_at = now() - interval '1 second' WHERE key_hash = $1`,
      [createHash('sha256').update(token.expired).digest('hex')],
    );
    expect(await probe(token.expired)).toEqual({ detail: 'Token has expired.' });
    await ok('staff', 'PATCH', `/api/users/${uuid.manager}/`, { is_active: false });
    expect((await call('manager', 'GET', '/api/users/me/')).body).toEqual({
      detail: 'User inactive or deleted.',
    });
    await ok('staff', 'PATCH', `/api/users/${uuid.manager}/`, { is_active: true });
  });

  const long = (n: number) => 'x'.repeat(n);
  const badRequests: [string, string, string, unknown, string?][] = [
    ['malformed JSON', 'POST', '/api/customers/', undefined, '{"name":'],
    ['JSON that is a string', 'POST', '/api/customers/', 'Org'],
    ['JSON that is an array', 'POST', '/api/customers/', [{ name: 'Org' }]],
    ['JSON null', 'POST', '/api/customers/', null],
    ['missing customer name', 'POST', '/api/customers/', {}],
    ['blank customer name', 'POST', '/api/customers/', { name: '   ' }],
    ['customer name a number', 'POST', '/api/customers/', { name: 42 }],
    ['customer name too long', 'POST', '/api/customers/', { name: long(151) }],
    ['abbreviation too long', 'POST', '/api/customers/', { name: 'Org', abbreviation: long(13) }],
    ['bad customer email', 'POST', '/api/customers/', { name: 'Org', email: 'not-an-email' }],
    ['unknown customer field', 'POST', '/api/customers/', { name: 'Org', colour: 'red' }],
    ['customer update with a wrong type', 'PATCH', '/api/customers/{A}/', { name: ['Org'] }],
    ['customer update with an unknown field', 'PATCH', '/api/customers/{A}/', { uuid: 'x' }],
    ['missing project name', 'POST', '/api/projects/', { customer: '{A}' }],
    ['missing project customer', 'POST', '/api/projects/', { name: 'P' }],
    ['project customer not a link', 'POST', '/api/projects/', { name: 'P', customer: 'Org A' }],
    [
      'project customer unknown',
      'POST',
      '/api/projects/',
      { name: 'P', customer: '6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11' },
    ],
    ['project name too long', 'POST', '/api/projects/', { name: long(501), customer: '{A}' }],
    ['project description a boolean', 'PATCH', '/api/projects/{P1}/', { description: true }],
    ['missing username', 'POST', '/api/users/', { full_name: 'Nobody' }],
    ['username with spaces', 'POST', '/api/users/', { username: 'no body' }],
    ['username too long', 'POST', '/api/users/', { username: long(151) }],
    ['username taken', 'POST', '/api/users/', { username: 'owner-user' }],
    ['is_staff a string', 'POST', '/api/users/', { username: 'typed', is_staff: 'yes' }],
    ['full_name too long', 'PATCH', '/api/users/{owner}/', { full_name: long(101) }],
    ['role unknown', 'POST', '/api/customers/{A}/add_user/', { user: '{member}', role: 'CUSTOMER.KING' }],
    [
      'role of the wrong scope',
      'POST',
      '/api/projects/{P1}/add_user/',
      { user: '{member}', role: 'CUSTOMER.OWNER' },
    ],
    ['grant without a user', 'POST', '/api/projects/{P1}/add_user/', { role: 'PROJECT.MEMBER' }],
    [
      'grant to an unknown user',
      'POST',
      '/api/projects/{P1}/add_user/',
      { user: '6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11', role: 'PROJECT.MEMBER' },
    ],
    ['bad uuid in a customer path', 'GET', '/api/customers/not-a-uuid/', undefined],
    ['bad uuid in a project path', 'PATCH', '/api/projects/1234/', { name: 'P' }],
    ['bad uuid in a user path', 'DELETE', '/api/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz/', undefined],
    ['page not a number', 'GET', '/api/customers/?page=two', undefined],
    ['page zero', 'GET', '/api/projects/?page=0', undefined],
    ['page negative', 'GET', '/api/users/?page=-1', undefined],
    ['page_size zero', 'GET', '/api/customers/?page_size=0', undefined],
    ['page_size too big', 'GET', '/api/customers/?page_size=100000', undefined],
    ['page_size a fraction', 'GET', '/api/customers/?page_size=1.5', undefined],
    ['page given twice', 'GET', '/api/customers/?page=1&page=2', undefined],
    ['page past the end', 'GET', '/api/customers/?page=99', undefined],
    ['filter uuid malformed', 'GET', '/api/projects/?customer_uuid=abc', undefined],
    ['is_staff filter not a boolean', 'GET', '/api/users/?is_staff=maybe', undefined],
    ['body not JSON', 'POST', '/api/customers/', undefined, 'name=Org'],
  ];

  // Rows are read inside: a test function declaring more parameters than a row has would get Jest's `done` callback.
  it.each(badRequests)('bad request: %s → 4xx with a message', async (...row) => {
    const [, method, pathTemplate, body, raw] = row;
    const path = pathTemplate.replace(/\{(\w+)\}/g, (_match, key: string) => uuid[key]);
    const filled =
      body === undefined
        ? undefined
        : (JSON.parse(JSON.stringify(body).replace(/\{(\w+)\}/g, (_m, key: string) => uuid[key])) as unknown);
    const headers: Record<string, string> = { Authorization: `Token ${token.staff}` };
    if (filled !== undefined || raw !== undefined)
      headers['Content-Type'] = raw === 'name=Org' ? 'application/x-www-form-urlencoded' : 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: raw ?? (filled === undefined ? undefined : JSON.stringify(filled)),
    });
    const answer = (await response.json()) as Json;
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const messages = Object.values(answer).flatMap((value): unknown[] =>
      Array.isArray(value) ? (value as unknown[]) : [value],
    );
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(typeof message === 'string' && message.length > 0).toBe(true);
  });

  it('names the field and the rule', async () => {
    const answer = await call('staff', 'POST', '/api/customers/', { name: 'x'.repeat(151), colour: 'red' });
    expect(answer).toMatchObject({
      status: 400,
      body: { name: ['Ensure this field has no more than 150 characters.'], colour: ['Unknown field.'] },
    });
    expect((await call('staff', 'POST', '/api/users/', {})).body).toEqual({
      username: ['This field is required.'],
    });
    expect((await call('staff', 'GET', '/api/customers/?page=0')).body).toEqual({
      page: ['Ensure this value is greater than or equal to 1.'],
    });
  });

  it('serves the OpenAPI document and the docs page without a token', async () => {
    const schema = await call(null, 'GET', '/api/schema/');
    expect(schema.status).toBe(200);
    expect(Object.keys((schema.body as { paths: Json }).paths)).toContain('/api/customers/{uuid}/add_user/');
    const page = await fetch(`${base}/api/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    expect((await fetch(`${base}/api/docs/swagger-ui-bundle.js`)).status).toBe(200);
  });

  // Last: it stops the order service.
  it('answers 503 within the configured timeout when the order service is stopped', async () => {
    await orderService.stop();
    const started = Date.now();
    const answer = await call('staff', 'GET', '/api/customers/');
    const elapsed = Date.now() - started;
    expect(answer.status).toBe(503);
    expect((answer.body as Json).detail).toMatch(/marketplace service (is not available|did not answer)/);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
  });
});
