import fc from 'fast-check';
import { hostileBodyText, hostileKey, hostileString, hostileValue, PROTOTYPE_KEYS } from './hostile';
import { array, fromJson, object, toText, type JsonNode } from './json-text';

type Schema = Record<string, unknown>;
type Collection = 'customers' | 'projects' | 'users' | 'offerings' | 'plans';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}

/** One operation of the OpenAPI document, as the fuzzer reads it. */
export interface DocumentedRoute {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
}

/** What the fuzzer may put in a request: tokens of every kind, and uuids of objects that exist. */
export interface FuzzPools {
  /** `Authorization` values: valid tokens of every role, expired, revoked and unknown ones, broken headers. */
  authorizations: string[];
  /** `Authorization` values with a live token: one per role (staff, owner, manager, member, no role). */
  roleAuthorizations: string[];
  /** Objects any request may name. */
  uuids: Record<Collection, string[]>;
  /** Objects a deleting or credential-changing request may name (the fixture's roles stay intact). */
  disposable: Record<Collection, string[]>;
  usernames: string[];
  passwords: string[];
}

export interface FuzzRequest {
  /** `METHOD /documented/path/` of the route it was made from, for the tally and the failure report. */
  route: string;
  method: string;
  bytes: Buffer;
}

export function documentedRoutes(document: {
  paths: Record<string, Record<string, unknown>>;
}): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const op = operation as {
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      };
      // An event stream never ends, so it cannot be answered in one request: the SSE suite tests it.
      if (op.responses?.['200']?.content?.['text/event-stream']) continue;
      routes.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
  return routes;
}

/** Percent-encodes every byte of the string's UTF-8 (lone surrogates included, which encodeURIComponent refuses). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

function collectionOf(path: string): Collection {
  if (path.startsWith('/api/projects/')) return 'projects';
  if (path.startsWith('/api/users/')) return 'users';
  if (/^\/api\/marketplace-(provider|public)-offerings\//.test(path)) return 'offerings';
  if (path.startsWith('/api/marketplace-plans/')) return 'plans';
  return 'customers';
}

/** Requests that delete, or change a user's password or tokens, or their flags: only disposable objects. */
function destructive(route: DocumentedRoute): boolean {
  return (
    route.method === 'DELETE' ||
    /(change_password|refresh_token|revoke_tokens|delete_user|archive)\/$/.test(route.path) ||
    (route.method === 'PATCH' && route.path.startsWith('/api/users/'))
  );
}

function validString(name: string, schema: Schema, pools: FuzzPools, safe: boolean): fc.Arbitrary<unknown> {
  const max = Math.min(Number(schema.maxLength ?? 40), 40);
  const min = Number(schema.minLength ?? 0);
  const users = safe ? pools.disposable.users : pools.uuids.users;
  if (name === 'user') return fc.constantFrom(...users);
  if (name === 'customer') return fc.constantFrom(...pools.uuids.customers);
  if (name === 'customer_uuid') return fc.oneof(fc.constantFrom(...pools.uuids.customers), fc.uuid());
  if (name === 'project_uuid') return fc.oneof(fc.constantFrom(...pools.uuids.projects), fc.uuid());
  if (name === 'username' && schema.pattern) return fc.stringMatching(/^[\w.@+-]{1,30}$/);
  if (name === 'username') return fc.constantFrom(...pools.usernames);
  if (name === 'password' || name.endsWith('_password'))
    return fc.oneof(fc.constantFrom(...pools.passwords), fc.string({ minLength: 8, maxLength: 30 }));
  if (schema.format === 'email') return fc.emailAddress().filter((email) => email.length <= max);
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

/** A value the schema accepts (mostly: the fuzzer does not insist). */
function validValue(name: string, schema: Schema, pools: FuzzPools, safe: boolean): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf))
    return fc.oneof(...(schema.anyOf as Schema[]).map((option) => validValue(name, option, pools, safe)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.type === 'boolean') return fc.boolean();
  if (schema.type === 'integer')
    return fc.integer({
      min: Number(schema.minimum ?? 0),
      max: Math.min(Number(schema.maximum ?? 100), 1_000),
    });
  if (schema.type === 'string') return validString(name, schema, pools, safe);
  if (schema.type === 'number') return fc.double({ min: 0, max: 1e6, noNaN: true });
  if (Array.isArray(schema.type))
    return fc.oneof(
      ...(schema.type as string[]).map((type) => validValue(name, { ...schema, type }, pools, safe)),
    );
  if (
    schema.type === 'object' &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === 'object'
  ) {
    // A record (prices, limits, attributes): ordinary keys, and now and then one named like a prototype member.
    const keys = fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
      { weight: 1, arbitrary: hostileKey },
    );
    return fc.dictionary(keys, validValue('', schema.additionalProperties as Schema, pools, safe), {
      maxKeys: 4,
    });
  }
  return fc.constant(null);
}

function validObject(schema: Schema, pools: FuzzPools, safe: boolean): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const record = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, validValue(name, property, pools, safe)]),
  );
  return fc.record(record, { requiredKeys: required });
}

type Mutation = ['add' | 'replace' | 'drop' | 'repeat', string, JsonNode, number];

function mutate(body: JsonNode, mutations: Mutation[]): JsonNode {
  if (body.kind !== 'object') return body;
  const entries = [...body.entries];
  for (const [kind, key, hostile, index] of mutations) {
    const at = entries.length > 0 ? index % entries.length : 0;
    if (kind === 'add') entries.push([key, hostile]);
    else if (kind === 'replace' && entries.length > 0) entries[at] = [entries[at][0], hostile];
    else if (kind === 'drop' && entries.length > 0) entries.splice(at, 1);
    else if (kind === 'repeat' && entries.length > 0) entries.push([entries[at][0], hostile]);
  }
  return object(entries);
}

const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.tuple(fc.constantFrom('add', 'replace', 'drop', 'repeat'), hostileKey, hostileValue, fc.nat()),
  { maxLength: 3 },
);

function bodyText(route: DocumentedRoute, pools: FuzzPools): fc.Arbitrary<string> {
  if (!route.body)
    return fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileBodyText });
  const safe = destructive(route) || route.path.endsWith('add_user/');
  const shaped = fc
    .tuple(validObject(route.body, pools, safe), mutations)
    .map(([valid, changes]) => toText(mutate(fromJson(valid), changes)));
  const wrapped = validObject(route.body, pools, safe).map((valid) => toText(array([fromJson(valid)])));
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: wrapped },
    { weight: 2, arbitrary: hostileBodyText },
  );
}

const HOSTILE_SEGMENTS = [
  'me',
  '..',
  '%2e%2e',
  '%00',
  '%ZZ',
  '%',
  'null',
  '0',
  '-1',
  ';',
  '%2F',
  '%F0%9F%92%A5',
  '%ED%A0%80',
  'x'.repeat(300),
  '00000000-0000-0000-0000-000000000000',
];

function pathSegment(route: DocumentedRoute, pools: FuzzPools): fc.Arbitrary<string> {
  const collection = collectionOf(route.path);
  const known = destructive(route) ? pools.disposable[collection] : pools.uuids[collection];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((uuid) => uuid.toUpperCase()) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 1, arbitrary: hostileString.filter((text) => text.length < 500).map(percentEncode) },
  );
}

function queryString(route: DocumentedRoute, pools: FuzzPools): fc.Arbitrary<string> {
  const documented = route.parameters.filter((parameter) => parameter.in === 'query');
  const valid = fc
    .subarray(documented)
    .chain((chosen) =>
      fc.tuple(
        ...chosen.map((parameter) =>
          validValue(parameter.name, parameter.schema, pools, false).map(
            (item) => `${parameter.name}=${percentEncode(String(item))}`,
          ),
        ),
      ),
    )
    .map((pairs) => pairs.join('&'));
  const names =
    documented.length > 0 ? fc.constantFrom(...documented.map((parameter) => parameter.name)) : hostileKey;
  const hostile = fc
    .array(
      fc.tuple(
        fc.oneof(names, hostileKey),
        hostileString.filter((text) => text.length < 300),
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    )
    .map((pairs) => pairs.map(([key, item]) => `${percentEncode(key)}=${percentEncode(item)}`).join('&'));
  const odd = fc.constantFrom(
    'page=1&page=2',
    'page=1e400',
    'page_size=0x10',
    'page=%ZZ',
    '__proto__[is_staff]=1',
    'a[b][c]=1',
    '=&&=&',
    '%00=%00',
    `name=${'x'.repeat(5_000)}`,
    Array.from({ length: 70 }, (_, index) => `p${index}=1`).join('&'),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: valid },
    { weight: 2, arbitrary: hostile },
    { weight: 1, arbitrary: odd },
  );
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/JSON',
  'application/problem+json',
  'application/json; charset="UTF-8"',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  '',
  '*/*',
  'application/json; boundary=;;;',
];

const EXTRA_HEADERS: [string, string][] = [
  ['X-Forwarded-For', '10.0.0.1, 127.0.0.1'],
  ['Content-Encoding', 'gzip'],
  ['Accept', '%%%'],
  ['Expect', '100-continue'],
  ['Transfer-Encoding', 'identity'],
  ['X-Bad', 'a\u0000b'],
  ['X-Bad', 'line\nbreak'],
  ['Bad Name', 'x'],
  ['X-Long', 'y'.repeat(20_000)],
  ['Content-Length', 'abc'],
  ['Authorization', 'Token a'],
  ['Upgrade', 'websocket'],
  ['Host', 'second.example'],
];

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'CONNECT'];

interface RequestParts {
  method: string;
  /** The Host header, or null for none. */
  host?: string | null;
  version?: '1.1' | '1.0';
  segment: string;
  query: string;
  body: string;
  authorization: string | null;
  contentType: string;
  extra: [string, string] | null;
  chunkedBody: boolean;
  pathVariant: string;
}

/** The bytes of one request to `route`, from its parts. */
export function composeRequest(route: DocumentedRoute, parts: RequestParts): FuzzRequest {
  const { method, segment, query, body, authorization, contentType, extra, chunkedBody, pathVariant } = parts;
  const { host = 'localhost', version = '1.1' } = parts;
  let path = route.path.replace(/\{[a-z_]+\}/g, segment);
  if (pathVariant === 'no-slash') path = path.replace(/\/$/, '');
  if (pathVariant === 'upper') path = path.toUpperCase();
  if (pathVariant === 'double-slash') path = path.replace('/api/', '//api//');
  if (pathVariant === 'extra') path = `${path}extra/`;
  if (pathVariant === 'absolute') path = `http://other.example${path}`;
  const target = query ? `${path}?${query}` : path;
  const payload = Buffer.from(body, 'utf8');
  const headers: [string, string][] = [['Connection', 'close']];
  if (host !== null) headers.push(['Host', host]);
  if (authorization !== null) headers.push(['Authorization', authorization]);
  if (payload.length > 0 || method === 'POST' || method === 'PATCH' || method === 'PUT')
    headers.push(['Content-Type', contentType]);
  if (extra !== null) headers.push(extra);
  let bytes: Buffer;
  if (chunkedBody && payload.length > 0) {
    headers.push(['Transfer-Encoding', 'chunked']);
    bytes = Buffer.concat([head(method, target, version, headers), chunk(payload), Buffer.from('0\r\n\r\n')]);
  } else {
    headers.push(['Content-Length', String(payload.length)]);
    bytes = Buffer.concat([head(method, target, version, headers), payload]);
  }
  return { route: `${route.method} ${route.path}`, method, bytes };
}

/** A request as a well-behaved client sends it, with the token of some role: it earns a 2xx or a policy refusal. */
function cleanRequest(route: DocumentedRoute, pools: FuzzPools): fc.Arbitrary<FuzzRequest> {
  const collection = collectionOf(route.path);
  const known = destructive(route) ? pools.disposable[collection] : pools.uuids[collection];
  const safe = destructive(route) || route.path.endsWith('add_user/');
  return fc
    .record({
      segment: fc.constantFrom(...known),
      body: route.body
        ? validObject(route.body, pools, safe).map((valid) => JSON.stringify(valid))
        : fc.constant(''),
      authorization: fc.constantFrom(...pools.roleAuthorizations),
    })
    .map(({ segment, body, authorization }) =>
      composeRequest(route, {
        method: route.method,
        segment,
        query: '',
        body,
        authorization,
        contentType: 'application/json',
        extra: null,
        chunkedBody: false,
        pathVariant: 'as-is',
      }),
    );
}

/** A request with any part broken: method, path, query, headers, body, token. */
function hostileRequest(route: DocumentedRoute, pools: FuzzPools): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      ),
      segment: pathSegment(route, pools),
      query: queryString(route, pools),
      body: bodyText(route, pools),
      authorization: fc.option(fc.constantFrom(...pools.authorizations), { freq: 6 }),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      extra: fc.option(fc.constantFrom(...EXTRA_HEADERS), { freq: 8 }),
      host: fc.oneof(
        { weight: 12, arbitrary: fc.constant('localhost') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            null,
            '',
            'evil.example:99999',
            '[::1]:8080',
            'a b',
            '../x',
            'localhost\u00ff',
          ),
        },
      ),
      version: fc.oneof(
        { weight: 12, arbitrary: fc.constant<'1.1'>('1.1') },
        { weight: 1, arbitrary: fc.constant<'1.0'>('1.0') },
      ),
      chunkedBody: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      pathVariant: fc.constantFrom(
        'as-is',
        'as-is',
        'as-is',
        'as-is',
        'no-slash',
        'upper',
        'double-slash',
        'extra',
        'absolute',
      ),
    })
    .map((parts) => composeRequest(route, parts));
}

/** Every request the fuzzer may send to the routes of one OpenAPI document: one in four clean, the rest hostile. */
export function fuzzRequests(
  routes: readonly DocumentedRoute[],
  pools: FuzzPools,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .constantFrom(...routes)
    .chain((route) =>
      fc.oneof(
        { weight: 1, arbitrary: cleanRequest(route, pools) },
        { weight: 3, arbitrary: hostileRequest(route, pools) },
      ),
    );
}

function head(method: string, target: string, version: string, headers: [string, string][]): Buffer {
  const lines = [
    `${method} ${target} HTTP/${version}`,
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

function chunk(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n')]);
}

/** Text no service can store, as JSON escapes (JSON text itself may not carry them raw). */
const UNSTORABLE = ['a\\u0000b', '\\ud800'];

/**
 * The defect classes the fuzzer found, sent to every route of the document whatever the seed:
 * each string field and string query parameter holding NUL or a lone surrogate, prototype-named
 * keys in the body and in each object-valued field.
 */
export function probeRequests(
  routes: readonly DocumentedRoute[],
  pools: FuzzPools,
  seed: number,
): FuzzRequest[] {
  const probes: FuzzRequest[] = [];
  const base = (route: DocumentedRoute) => ({
    method: route.method,
    segment: (destructive(route) ? pools.disposable : pools.uuids)[collectionOf(route.path)][0],
    query: '',
    body: '',
    authorization: pools.roleAuthorizations[0],
    contentType: 'application/json',
    extra: null,
    chunkedBody: false,
    pathVariant: 'as-is',
  });
  for (const route of routes) {
    for (const parameter of route.parameters.filter((p) => p.in === 'query' && p.schema.type === 'string'))
      probes.push(composeRequest(route, { ...base(route), query: `${parameter.name}=%00` }));
    if (!route.body) continue;
    const safe = destructive(route) || route.path.endsWith('add_user/');
    const [valid] = fc.sample(validObject(route.body, pools, safe), { seed, numRuns: 1 });
    const properties = (route.body.properties ?? {}) as Record<string, Schema>;
    const withField = (name: string, rawValue: string) => {
      const entries = Object.entries(valid)
        .filter(([key]) => key !== name)
        .map(([key, item]) => `${JSON.stringify(key)}:${JSON.stringify(item)}`);
      return `{${[...entries, `${JSON.stringify(name)}:${rawValue}`].join(',')}}`;
    };
    for (const [name, property] of Object.entries(properties)) {
      if (property.type === 'string' || Array.isArray(property.anyOf))
        for (const text of UNSTORABLE)
          probes.push(composeRequest(route, { ...base(route), body: withField(name, `"${text}"`) }));
      if (property.type === 'object') {
        const keys = PROTOTYPE_KEYS.map((key) => `"${key}":{"is_staff":true}`).join(',');
        probes.push(composeRequest(route, { ...base(route), body: withField(name, `{${keys}}`) }));
        probes.push(
          composeRequest(route, { ...base(route), body: withField(name, `{"a${UNSTORABLE[0]}":1}`) }),
        );
      }
    }
    const keys = PROTOTYPE_KEYS.map((key) => `,"${key}":{"is_staff":true}`).join('');
    probes.push(
      composeRequest(route, { ...base(route), body: `${toText(fromJson(valid)).slice(0, -1)}${keys}}` }),
    );
  }
  return probes;
}
