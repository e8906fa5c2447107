import { createHash, randomBytes } from 'node:crypto';
import { dereference } from '@readme/openapi-parser';
import fc from 'fast-check';
import { ApiSystem } from '../support/api-system';
import { changedTables, consumedAnEvent, DbDigest } from '../support/fuzz/db-digest';
import { PROTOTYPE_KEYS } from '../support/fuzz/hostile';
import {
  composeRequest,
  documentedRoutes,
  fuzzRequests,
  probeRequests,
  type DocumentedRoute,
  type FuzzPools,
  type FuzzRequest,
} from '../support/fuzz/openapi-requests';
import { rawRequest, type RawAnswer } from '../support/raw-http';
import { recordAnswer, rememberSecret } from '../support/secret-scan';

/**
 * The API fuzzer: hostile requests for every route of the OpenAPI document the gateway serves,
 * sent as raw bytes (no client library smooths them), with tokens of every role and none. The
 * property: every answer is < 500; every refusal is JSON with a message; a refused request
 * changes no row. `npm test` runs FUZZ_RUNS (3,000) cases with a fixed seed; `npm run fuzz --
 * --runs N [--seed S]` runs more, and a failure names its seed and path to replay it.
 *
 * Defect classes found (against main unless said), each fixed where it arose:
 *  - a body key named like an Object.prototype member (`__proto__`, `constructor`, `toString`)
 *    crashed the error report (`fields[key] ??= []` found the prototype's member): 500. Field
 *    errors are collected in a prototype-less map (libs/contracts/src/identity/request-validation.ts);
 *  - NUL in a body string or a query filter reached Postgres: 500 (`?name=%00` on customers and on
 *    the marketplace's offerings); a lone surrogate was stored as U+FFFD. The gateway refuses both
 *    in every query value and body, keys included (gateway/src/rest/storable-input.ts), and the
 *    identity field rules name them as DRF does (wire-fields.ts);
 *  - answers that were not JSON, or none: Node's bare 400 and 431 (bad header characters, bad
 *    framing, a missing Host, a 16 KiB head), a CONNECT whose connection was dropped, a wrong
 *    method as Nest's 404, Express's decode error (http-hygiene.ts, fallback-handlers.ts);
 *  - a client still sending after its head was refused kept a half-open socket, and the gateway
 *    never exited on SIGTERM (found by the first 3,000-case run): the socket is cut after 2 s and a
 *    shutdown closes connections;
 *  - silently accepted input: a key twice in one body (last one won), unbounded nesting (400 now).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_130);
const SHRINK = process.env.FUZZ_SHRINK === '1';

jest.setTimeout(120_000 + RUNS * 200);

const PASSWORD = 'fuzz-Fixture-pass-1';

function preview(request: FuzzRequest): string {
  const text = request.bytes.subarray(0, 600).toString('latin1');
  return request.bytes.length > 600 ? `${text}… (${request.bytes.length} bytes)` : text;
}

/** A refusal is JSON naming the problem: `{"detail": "..."}` or `{"field": ["message", ...]}`. */
function refusalProblem(answer: RawAnswer): string | null {
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return 'not JSON';
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'body is not valid JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body is not a JSON object';
  const values = Object.values(body);
  if (values.length === 0) return 'no message';
  for (const message of values) {
    const messages = Array.isArray(message) ? (message as unknown[]) : [message];
    if (messages.length === 0 || messages.some((item) => typeof item !== 'string' || item.length === 0))
      return 'a message that is not a non-empty string';
  }
  return null;
}

/** The requests behind each defect class found: always sent first, whatever the seed. */
function regressions(routes: readonly DocumentedRoute[], staff: string): FuzzRequest[] {
  const route = (method: string, path: string) => {
    const found = routes.find((candidate) => candidate.method === method && candidate.path === path);
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  };
  const send = (
    method: string,
    path: string,
    parts: { body?: string; query?: string; extra?: [string, string]; host?: string; absolute?: boolean },
  ) =>
    composeRequest(route(method, path), {
      method,
      host: parts.host ?? 'localhost',
      segment: '',
      query: parts.query ?? '',
      body: parts.body ?? '',
      authorization: `Token ${staff}`,
      contentType: 'application/json',
      extra: parts.extra ?? null,
      chunkedBody: false,
      pathVariant: parts.absolute ? 'absolute' : 'as-is',
    });
  const customers = (body: string) => send('POST', '/api/customers/', { body });
  return [
    ...PROTOTYPE_KEYS.map((key) => customers(`{"name":"Org","${key}":{"is_staff":true}}`)),
    customers('{"name":"a\\u0000b"}'),
    customers('{"name":"\\ud800"}'),
    send('GET', '/api/customers/', { query: 'name=%00' }),
    send('GET', '/api/users/', { query: 'username=%ED%A0%80' }),
    customers('{"name":"a","name":"b"}'),
    customers(`{"name":${'['.repeat(5_000)}${']'.repeat(5_000)}}`),
    customers(`{"name":"${'x'.repeat(300_000)}"}`),
    send('POST', '/api-auth/password/', { body: '{"username":"root","password":"x","constructor":1}' }),
    send('POST', '/api/customers/', { body: '{"name":"Org"}', extra: ['X-Long', 'y'.repeat(20_000)] }),
    // A Host that passes a host:port pattern but makes no URL (port 99999), and an absolute-form target.
    send('GET', '/api/customers/', { host: 'evil.example:99999' }),
    send('GET', '/api/customers/', { absolute: true, query: 'page=1' }),
  ];
}

describe('API fuzzer: hostile requests for every route of the OpenAPI document', () => {
  let system: ApiSystem;
  let digest: DbDigest;
  let pools: FuzzPools;
  let routes: ReturnType<typeof documentedRoutes>;

  async function user(username: string, password?: string): Promise<string> {
    const made = await system.ok(system.staffToken, 'POST', '/api/users/', { username });
    if (password)
      await system.ok(system.staffToken, 'POST', `/api/users/${made.uuid as string}/change_password/`, {
        new_password: password,
      });
    return made.uuid as string;
  }

  async function login(username: string): Promise<string> {
    return (
      await system.ok<{ token: string }>(null, 'POST', '/api-auth/password/', {
        username,
        password: PASSWORD,
      })
    ).token;
  }

  beforeAll(async () => {
    rememberSecret(PASSWORD, 'fixture password');
    system = await ApiSystem.start('fuzz', { allApps: true });
    rememberSecret(system.staffToken, 'staff token');
    const staff = system.staffToken;
    const uuid: Record<string, string> = {};
    for (const name of ['owner', 'manager', 'member', 'outsider'])
      uuid[name] = await user(`fuzz-${name}`, PASSWORD);
    for (const name of ['u1', 'u2', 'u3']) uuid[name] = await user(`fuzz-${name}`, PASSWORD);
    const customer = async (name: string) =>
      (await system.ok(staff, 'POST', '/api/customers/', { name })).uuid as string;
    const project = async (name: string, customerUuid: string) =>
      (await system.ok(staff, 'POST', '/api/projects/', { name, customer: customerUuid })).uuid as string;
    uuid.A = await customer('Org A');
    uuid.B = await customer('Org B');
    for (const name of ['S1', 'S2', 'S3']) uuid[name] = await customer(`Spare ${name}`);
    uuid.P1 = await project('A one', uuid.A);
    uuid.SP1 = await project('Spare one', uuid.A);
    uuid.SP2 = await project('Spare two', uuid.B);
    await system.ok(staff, 'POST', `/api/customers/${uuid.A}/add_user/`, {
      user: uuid.owner,
      role: 'CUSTOMER.OWNER',
    });
    await system.ok(staff, 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: uuid.manager,
      role: 'PROJECT.MANAGER',
    });
    await system.ok(staff, 'POST', `/api/projects/${uuid.P1}/add_user/`, {
      user: uuid.member,
      role: 'PROJECT.MEMBER',
    });
    // Offerings of A (which so becomes a service provider), each with its default plan.
    const plans: string[] = [];
    for (const name of ['O1', 'O2']) {
      const offering = await system.ok<{ uuid: string; plans: { uuid: string }[] }>(
        staff,
        'POST',
        '/api/marketplace-provider-offerings/',
        { name: `Offering ${name}`, type: 'Marketplace.Basic', customer: uuid.A },
      );
      uuid[name] = offering.uuid;
      plans.push(...offering.plans.map((plan) => plan.uuid));
    }

    const token: Record<string, string> = {};
    token.revoked = await login('fuzz-outsider');
    await system.ok(staff, 'POST', `/api/users/${uuid.outsider}/revoke_tokens/`);
    for (const name of ['owner', 'manager', 'member', 'outsider']) token[name] = await login(`fuzz-${name}`);
    token.expired = await login('fuzz-member');
    await system.sql(
      `UPDATE marketplace.api_tokens SET expires_at = now() - interval '1 minute' WHERE key_hash = $1`,
      [createHash('sha256').update(token.expired).digest('hex')],
    );
    token.unknown = randomBytes(20).toString('hex');
    for (const [name, key] of Object.entries(token)) rememberSecret(key, `${name} token`);

    const roleAuthorizations = [staff, token.owner, token.manager, token.member, token.outsider].map(
      (key) => `Token ${key}`,
    );
    pools = {
      roleAuthorizations,
      authorizations: [
        ...[staff, token.owner, token.manager, token.member, token.outsider].map((key) => `Token ${key}`),
        `Token ${token.expired}`,
        `Token ${token.revoked}`,
        `Token ${token.unknown}`,
        `token ${token.member}`,
        'Token',
        'Token  a b',
        'Bearer abc',
        'Basic dXNlcjpwYXNz',
        '',
        `Token ${'f'.repeat(300)}`,
        'Token \u00ff\u00fe\u0080',
        `Token ${staff}, Token ${token.member}`,
      ],
      uuids: {
        customers: [uuid.A, uuid.B, uuid.S1, uuid.S2, uuid.S3],
        projects: [uuid.P1, uuid.SP1, uuid.SP2],
        users: ['owner', 'manager', 'member', 'outsider', 'u1', 'u2', 'u3'].map((name) => uuid[name]),
        offerings: [uuid.O1, uuid.O2],
        plans,
      },
      disposable: {
        customers: [uuid.S1, uuid.S2, uuid.S3],
        projects: [uuid.SP1, uuid.SP2],
        users: [uuid.u1, uuid.u2, uuid.u3],
        offerings: [uuid.O2],
        plans: plans.slice(1),
      },
      usernames: ['fuzz-owner', 'fuzz-member', 'fuzz-u1', 'nobody', 'root'],
      passwords: [PASSWORD, 'wrong-password-1'],
    };
    const document = await system.ok<{ paths: Record<string, Record<string, unknown>> }>(
      null,
      'GET',
      '/api/schema/',
    );
    // Bodies and answers are named components: the fuzzer reads each schema in place.
    routes = documentedRoutes(
      (await dereference(document as Parameters<typeof dereference>[0])) as unknown as typeof document,
    );
    digest = await DbDigest.open(system.db.url);
  });

  afterAll(async () => {
    await digest?.close();
    await system?.stop();
  });

  it(`${RUNS} generated requests (seed ${SEED}): never a 5xx, each refusal a JSON message, no row changed by a refusal`, async () => {
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const tally = new Map<string, number>();
    const statuses = new Map<number, number>();
    const started = Date.now();
    const examples = [...regressions(routes, system.staffToken), ...probeRequests(routes, pools, SEED)];
    let state = await digest.take();
    let skipped = 0;

    const property = fc.asyncProperty(fuzzRequests(routes, pools), async (request) => {
      const answer = await rawRequest(system.port, request.bytes, 15_000);
      if (!answer) throw new Error(`no answer to ${request.route}`);
      tally.set(request.route, (tally.get(request.route) ?? 0) + 1);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const issues = /^POST \/(api-auth\/password|api\/users\/\{uuid\}\/refresh_token)\/$/.test(
        request.route,
      );
      const issued =
        issues && request.method === 'POST' && (answer.status === 200 || answer.status === 201)
          ? (JSON.parse(answer.body) as { token?: string }).token
          : undefined;
      recordAnswer(`fuzz ${request.route}`, `${JSON.stringify(answer.headers)}\n${answer.body}`, issued);
      if (answer.status >= 500) throw new Error(`${answer.status} ${answer.body}`);
      if (answer.status >= 400 && request.method !== 'HEAD') {
        const problem = refusalProblem(answer);
        if (problem)
          throw new Error(`${answer.status} refusal with ${problem}: ${answer.body.slice(0, 300)}`);
      }
      const after = await digest.take();
      const changed = changedTables(state, after);
      state = after;
      if (answer.status >= 400 && changed.length > 0) {
        // An event of an earlier request consumed meanwhile explains the change; nothing else does.
        if (consumedAnEvent(changed)) skipped++;
        else throw new Error(`refused with ${answer.status}, yet changed ${changed.join(', ')}`);
      }
    });

    try {
      await fc.assert(property, {
        examples: examples.map((request) => [request]),
        seed: SEED,
        // fast-check counts the examples among the runs: RUNS generated ones come on top.
        numRuns: RUNS + examples.length,
        endOnFailure: !SHRINK,
        reporter: (details) => {
          if (!details.failed) return;
          const example = details.counterexample?.[0];
          throw new Error(
            `Fuzz failure after ${details.numRuns} runs: ${String(details.errorInstance)}\n` +
              `request:\n${example ? preview(example) : '(none)'}\n` +
              `replay: npm run fuzz -- --runs ${RUNS} --seed ${details.seed}   (fast-check path ${details.counterexamplePath})`,
          );
        },
      });
    } finally {
      const seconds = (Date.now() - started) / 1000;
      const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
      process.stdout.write(
        `[fuzz] seed ${SEED}: ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests in ${seconds.toFixed(1)} s ` +
          `over ${tally.size}/${routes.length} routes; statuses ${byStatus.join(' ')}; ` +
          `${skipped} refusals not compared (an event was consumed meanwhile)\n`,
      );
    }
    // Every documented route was exercised.
    expect(tally.size).toBe(routes.length);
  });
});
