import { randomBytes } from 'node:crypto';
import { dereference } from '@readme/openapi-parser';
import type { AccessRule } from '@app/contracts';
import { expectedAnswer, inAudience, type Expected, type Subject } from '../support/access-audience';
import { AccessWorld, MATRIX_PASSWORD, MATRIX_ROLES, type MatrixRole } from '../support/access-world';
import { SseClient } from '../support/sse-client';
import { eventually, operationEnd, type Disk } from '../support/virtual-machines';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;
interface DocOperation {
  operationId: string;
  'x-access'?: AccessRule & { rule: string };
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { required?: string[] } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Answer {
  status: number;
  body: unknown;
}

/** What a route needs beyond the document to be called meaningfully. */
interface CallSpec {
  /** A valid body (every role gets the same one: refusals must come from the policy, not the body). */
  body?: (w: AccessWorld) => unknown;
  query?: string;
  /** The object the rule is about when the body links it (creations). */
  subject?: (w: AccessWorld) => Subject;
  /** When the allowed calls run: later stages after earlier ones (state changes last). */
  stage?: number;
  /** A fresh object of the same standing for each allowed call, where the first would use it up. */
  fresh?: (w: AccessWorld, made: Made) => Promise<string>;
  /** The object of an allowed call, read again (the path's own may have changed meanwhile). */
  current?: (w: AccessWorld) => Promise<string>;
  /** Answers other than 2xx that mean the route served an allowed caller. */
  accept?: readonly number[];
  /** Run before each allowed call; a reason answered means the call cannot be made meaningfully. */
  before?: (w: AccessWorld) => Promise<unknown>;
  after?: (w: AccessWorld, role: MatrixRole) => Promise<void>;
}
/** Objects the allowed calls made, for later stages to use up. */
interface Made {
  disks: string[];
  ports: string[];
  /** Snapshots a delete already took. */
  snapshotsTaken: string[];
}

const unique = () => randomBytes(4).toString('hex');
const link = (w: AccessWorld, collection: string, uuid: string) => w.url(collection, uuid);
const orgA = (w: AccessWorld): Subject => ({ customer: w.orgA.uuid });

function assignment(field: string, object: 'cluster' | 'network' | 'datastore' | 'folder') {
  return (w: AccessWorld) => ({
    customer: link(w, 'customers', w.orgA.uuid),
    [field]: w.inventory[object].uuid,
  });
}
const ASSIGNMENTS: Record<string, [string, 'cluster' | 'network' | 'datastore' | 'folder']> = {
  clusters: ['cluster', 'cluster'],
  networks: ['network', 'network'],
  network_pairs: ['network', 'network'],
  datastores: ['datastore', 'datastore'],
  folders: ['folder', 'folder'],
};

async function regrant(w: AccessWorld, scope: 'customers' | 'projects', role: string): Promise<void> {
  const uuid = scope === 'customers' ? w.orgA.uuid : w.p1.uuid;
  await w.api.call('staff', 'POST', `/api/${scope}/${uuid}/add_user/`, { user: w.userUuid('grantee'), role });
}

/**
 * The VM powered on, whatever earlier calls did to it: a Terminate of it is then refused (409) and
 * the VM stays. Answers why not when it cannot be had (a refused call that got through left it
 * busy): the terminate's allowed calls are then not made, and that is a mismatch of its own.
 */
let vmLost: string | null = null;
async function runningVm(w: AccessWorld): Promise<string | null> {
  if (vmLost !== null) return vmLost;
  const path = `/api/vmware-virtual-machine/${w.vm.uuid}/`;
  const read = () => w.api.ok<{ runtime_state: string }>('staff', 'GET', path);
  if ((await read()).runtime_state === 'POWERED_ON') return null;
  await w.api.call('staff', 'POST', `${path}start/`);
  try {
    await eventually(read, (vm) => vm.runtime_state === 'POWERED_ON', 20_000, 'the VM powered on again');
    return null;
  } catch (error) {
    vmLost = `the VM could not be powered on again for the terminate's allowed calls: ${String(error).slice(0, 200)}`;
    return vmLost;
  }
}

const renewMember = (w: AccessWorld) => w.renewToken('project-member');

const SPECS: Record<string, CallSpec> = {
  // The world runs no sync scheduler: /health says so with 503 (degraded), to everyone alike.
  health_retrieve: { accept: [503] },
  api_auth_password_create: { body: () => ({ username: 'login-user', password: MATRIX_PASSWORD }) },
  customers_create: { body: () => ({ name: `Org ${unique()}` }) },
  customers_partial_update: { body: () => ({ description: 'matrix' }) },
  customers_add_user: { body: (w) => ({ user: w.userUuid('grantee'), role: 'CUSTOMER.OWNER' }) },
  customers_delete_user: {
    body: (w) => ({ user: w.userUuid('grantee'), role: 'CUSTOMER.OWNER' }),
    stage: 2,
    before: (w) => regrant(w, 'customers', 'CUSTOMER.OWNER'),
  },
  // Limits far above what the matrix orders, so they never refuse one of its orders.
  customers_set_quotas: { body: () => ({ vcpu: 100_000 }) },
  // A month ahead: no scheduler runs in the matrix's world, so nothing is terminated.
  marketplace_resources_set_end_date: {
    body: () => ({ end_date: new Date(Date.now() + 30 * 86_400_000).toISOString() }),
  },
  projects_set_quotas: { body: () => ({ vcpu: 100_000 }) },
  projects_create: {
    body: (w) => ({ name: `P ${unique()}`, customer: link(w, 'customers', w.orgA.uuid) }),
    subject: orgA,
  },
  projects_partial_update: { body: () => ({ description: 'matrix' }) },
  projects_add_user: { body: (w) => ({ user: w.userUuid('grantee'), role: 'PROJECT.MEMBER' }) },
  projects_delete_user: {
    body: (w) => ({ user: w.userUuid('grantee'), role: 'PROJECT.MEMBER' }),
    stage: 2,
    before: (w) => regrant(w, 'projects', 'PROJECT.MEMBER'),
  },
  users_create: { body: () => ({ username: `u-${unique()}` }) },
  users_partial_update: { body: () => ({ full_name: 'Matrix Member' }) },
  users_destroy: {
    stage: 5,
    // A user of the same standing (a member of P1) per allowed call: the named one stays.
    fresh: async (w) => {
      const user = await w.api.ok<{ uuid: string }>('staff', 'POST', '/api/users/', {
        username: `d-${unique()}`,
      });
      await w.api.ok('staff', 'POST', `/api/projects/${w.p1.uuid}/add_user/`, {
        user: user.uuid,
        role: 'PROJECT.MEMBER',
      });
      return user.uuid;
    },
  },
  // A password change may revoke the user's tokens (set by staff: all of them): a new one after each.
  users_change_password: {
    body: () => ({ new_password: MATRIX_PASSWORD, current_password: MATRIX_PASSWORD }),
    stage: 5,
    after: renewMember,
  },
  users_refresh_token: { stage: 5, after: renewMember },
  users_revoke_tokens: { stage: 5, after: renewMember },
  marketplace_provider_offerings_create: {
    body: (w) => ({
      name: `O ${unique()}`,
      type: 'Marketplace.Basic',
      customer: link(w, 'customers', w.provider),
    }),
    subject: (w) => ({ customer: w.provider }),
  },
  marketplace_provider_offerings_partial_update: { body: () => ({ description: 'matrix' }) },
  marketplace_provider_offerings_pause: { stage: 2 },
  marketplace_provider_offerings_activate: { stage: 3 },
  marketplace_provider_offerings_archive: {
    stage: 2,
    fresh: async (w) =>
      (
        await w.api.ok<{ uuid: string }>('staff', 'POST', '/api/marketplace-provider-offerings/', {
          name: `A ${unique()}`,
          type: 'Marketplace.Basic',
          customer: link(w, 'customers', w.provider),
        })
      ).uuid,
  },
  marketplace_provider_offerings_update_integration: { body: () => ({ service_attributes: {} }) },
  marketplace_plans_update_prices: { body: () => ({ prices: { cpu: '5' } }) },
  marketplace_plans_estimate: { body: () => ({ limits: { cpu: 2, ram: 2048 } }) },
  marketplace_orders_create: {
    query: 'dry_run=true',
    subject: (w) => ({ project: { uuid: w.p1.uuid, customer: w.orgA.uuid } }),
    body: (w) => {
      const offering = link(w, 'marketplace-public-offerings', w.offering.uuid);
      return {
        offering,
        project: link(w, 'projects', w.p1.uuid),
        plan: `${offering}plans/${w.offering.plans[0].uuid}/`,
        attributes: {
          name: 'e2e-matrix-dry',
          template: link(w, 'vmware-templates', w.market.templates[0].uuid),
          cores_per_socket: 1,
          networks: [{ url: link(w, 'vmware-networks', w.inventory.network.uuid) }],
          folder: link(w, 'vmware-folders', w.inventory.folder.uuid),
        },
        limits: { cpu: 2, ram: 2048 },
        accepting_terms_of_service: true,
      };
    },
  },
  marketplace_orders_set_state_erred: { body: () => ({ error_message: 'matrix' }) },
  // A running VM is not terminated (409): it is started again first if an earlier call stopped it.
  marketplace_resources_terminate: { stage: 2, before: runningVm },
  marketplace_resources_update_limits: { body: () => ({ limits: { cpu: 2, ram: 2048 } }) },
  vmware_virtual_machine_partial_update: { body: () => ({ cores: 2 }) },
  vmware_virtual_machine_update: { body: () => ({ cores: 2 }) },
  vmware_virtual_machine_stop: { stage: 4 },
  vmware_virtual_machine_suspend: { stage: 4 },
  vmware_virtual_machine_create_disk: { body: () => ({ size: 1024 }) },
  vmware_virtual_machine_create_port: {
    body: (w) => ({ network: link(w, 'vmware-networks', w.inventory.network.uuid) }),
  },
  vmware_disks_extend: {
    body: () => ({ size: 20 * 1024 }),
    // A disk the VM still has: a refused delete that got through may have taken the first one.
    current: async (w) =>
      pickDisk(
        (await w.api.ok<{ disks: Disk[] }>('staff', 'GET', `/api/vmware-virtual-machine/${w.vm.uuid}/`))
          .disks,
      ),
  },
  vmware_disks_destroy: { stage: 2, fresh: (_w, made) => Promise.resolve(takeFresh(made.disks, 'disk')) },
  vmware_ports_destroy: { stage: 2, fresh: (_w, made) => Promise.resolve(takeFresh(made.ports, 'port')) },
  vmware_virtual_machine_create_snapshot: { body: () => ({ name: 'matrix' }) },
  // Each allowed delete takes a snapshot an allowed create made (stage 1), never the world's own.
  vmware_snapshots_destroy: { stage: 2, fresh: freshSnapshot },
  vmware_virtual_machine_remove_all_snapshots: { stage: 3 },
  ...Object.fromEntries<CallSpec>(
    Object.entries(ASSIGNMENTS).flatMap(([kind, [field, object]]): [string, CallSpec][] => [
      [`vmware_customer_${kind}_create`, { body: assignment(field, object), subject: orgA }],
      [`vmware_customer_${kind}_remove`, { body: assignment(field, object), stage: 2 }],
    ]),
  ),
};

/** A snapshot of the world VM that no delete took yet, once an allowed create made it. */
async function freshSnapshot(w: AccessWorld, made: Made): Promise<string> {
  const free = (list: { uuid: string }[]) =>
    list.filter((s) => s.uuid !== w.snapshot.uuid && !made.snapshotsTaken.includes(s.uuid));
  const [snapshot] = free(
    await eventually(
      () =>
        w.api.ok<{ uuid: string }[]>('staff', 'GET', `/api/vmware-virtual-machine/${w.vm.uuid}/snapshots/`),
      (list) => free(list).length > 0,
      60_000,
      'a snapshot an allowed create made',
    ),
  );
  made.snapshotsTaken.push(snapshot.uuid);
  return snapshot.uuid;
}

/** A disk that stays: one in state OK (not one a delete already took). */
function pickDisk(disks: readonly Disk[]): string {
  return (disks.find((disk) => disk.state === 'OK') ?? disks[0]).uuid;
}

function takeFresh(pool: string[], what: string): string {
  const uuid = pool.shift();
  if (uuid === undefined) throw new Error(`no ${what} left that an allowed create made`);
  return uuid;
}

/** One route of the document, ready to be called by every role. */
interface Route {
  id: string;
  method: string;
  path: string;
  rule: AccessRule;
  spec: CallSpec;
  stream: boolean;
  subject: Subject;
  /** The object a list must (or must not) hold. */
  item?: string;
  query: string;
}

describe('the access matrix: every route of the OpenAPI document × every role, against x-access', () => {
  let w: AccessWorld;
  let routes: Route[];
  const undeclared: string[] = [];
  const made: Made = { disks: [], ports: [], snapshotsTaken: [] };

  beforeAll(async () => {
    w = await AccessWorld.start('accessmx');
    // Bodies are named components: read each one's required fields in place.
    const published = (await (await fetch(`${w.api.base}/api/schema/`)).json()) as Parameters<
      typeof dereference
    >[0];
    const document = (await dereference(published)) as unknown as {
      paths: Record<string, Record<string, DocOperation>>;
    };
    const worlds = [
      { label: '', subjects: w.subjects() },
      // The routes whose answer depends on the offering's state, again on the Draft offering.
      { label: ' [Draft offering]', subjects: w.draftSubjects() },
    ];
    routes = [];
    for (const [template, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item)) {
        const id = operation.operationId;
        const rule = operation['x-access'];
        const spec = SPECS[id] ?? {};
        const required = operation.requestBody?.content['application/json']?.schema.required ?? [];
        if (!rule) undeclared.push(`${id}: no x-access`);
        else if (required.length > 0 && !spec.body) undeclared.push(`${id}: no body to call it with`);
        if (!rule) continue;
        const collection = template.split('/')[2] ?? '';
        const params = (operation.parameters ?? []).map((p) => p.name);
        const query = [params.includes('page_size') ? 'page_size=300' : '', spec.query ?? '']
          .filter(Boolean)
          .join('&');
        for (const { label, subjects } of worlds) {
          const target = subjects[collection];
          if (label && (!target || spec.subject)) continue;
          const path = template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
            const value = name === 'uuid' || name === 'offering_uuid' ? target?.uuid : target?.params?.[name];
            if (value === undefined) throw new Error(`${id}: no world object for {${name}} of ${template}`);
            return value;
          });
          if (label && path === template && rule.items === undefined) continue;
          routes.push({
            id: `${id}${label}`,
            method: method.toUpperCase(),
            path,
            rule,
            spec,
            stream: operation.responses['200']?.content?.['text/event-stream'] !== undefined,
            subject: spec.subject?.(w) ?? target?.subject ?? {},
            item: rule.items !== undefined ? target?.uuid : undefined,
            query,
          });
        }
      }
  });

  afterAll(async () => {
    await w?.stop();
  });

  async function call(route: Route, role: MatrixRole, path = route.path): Promise<Answer> {
    const url = `${w.api.base}${path}${route.query ? `?${route.query}` : ''}`;
    const token = w.token(role);
    if (route.stream) {
      const stream = await SseClient.open(url, token ? { token } : {});
      stream.close();
      return { status: stream.status, body: null };
    }
    const withBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
    const payload = withBody ? JSON.stringify(route.spec.body?.(w) ?? {}) : undefined;
    const response = await fetch(url, {
      method: route.method,
      headers: {
        ...(token && { Authorization: `Token ${token}` }),
        ...(payload !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: payload,
    });
    const text = await response.text();
    const json =
      /json/.test(response.headers.get('content-type') ?? '') && text ? (JSON.parse(text) as unknown) : text;
    return { status: response.status, body: json };
  }

  /** Whether an answer is what the declaration says; the mismatch described if not. */
  function check(
    route: Route,
    role: MatrixRole,
    expected: Expected,
    answer: Answer,
    exact2xx: boolean,
  ): string | null {
    const cell = `${route.method} ${route.path} (${route.id}, ${route.rule.see}/${route.rule.act}) as ${role}`;
    const got = `${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`;
    if (expected.allowed && route.spec.accept?.includes(answer.status)) return null;
    if (answer.status >= 500) return `${cell}: ${got}`;
    if (!expected.allowed)
      return answer.status === expected.status ? null : `${cell}: expected ${expected.status}, got ${got}`;
    if (exact2xx ? answer.status >= 300 : [401, 403, 404].includes(answer.status))
      return `${cell}: expected ${exact2xx ? '2xx' : 'allowed (not 401/403/404)'}, got ${got}`;
    if (route.item !== undefined && Array.isArray(answer.body)) {
      const holds = (answer.body as Json[]).some((item) => item.uuid === route.item);
      const should = inAudience(route.rule.items!, w.facts(role), route.subject);
      if (holds !== should) return `${cell}: the list ${holds ? 'holds' : 'lacks'} ${route.item}`;
    }
    return null;
  }

  async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: limit }, async () => {
        while (next < items.length) await work(items[next++]);
      }),
    );
  }

  const expected = (route: Route, role: MatrixRole) =>
    expectedAnswer(route.rule, w.facts(role), route.subject);
  const cells = (keep: (route: Route, role: MatrixRole) => boolean) =>
    routes.flatMap((route) =>
      MATRIX_ROLES.filter((role) => keep(route, role)).map((role) => ({ route, role })),
    );

  it("never sends P1's VM, order or resource events to a member of P2 only, live or replayed", async () => {
    const p1 = [w.p1.uuid, w.vm.uuid, w.order.uuid, w.vm.marketplace_resource_uuid];
    const aboutP1 = (data: string) => p1.some((uuid) => data.includes(uuid));
    // A VM operation's progress (VmChanged), as the P1 events before the marker.
    const reset = await w.api.ok<{ uuid: string }>(
      'staff',
      'POST',
      `/api/vmware-virtual-machine/${w.vm.uuid}/reset/`,
    );
    await operationEnd(w.staffStream, { uuid: reset.uuid, vm_uuid: w.vm.uuid });
    // The marker: an Active offering's change, which every signed-in user sees, after P1's events.
    const marker = `marker-${unique()}`;
    await w.api.ok('staff', 'PATCH', `/api/marketplace-provider-offerings/${w.offering.uuid}/`, {
      description: marker,
    });
    const hasMarker = (s: SseClient) => s.events('OfferingChanged').some((m) => m.data.includes(marker));
    await w.staffStream.waitFor(hasMarker, 30_000, 'the marker on the staff stream');
    const staffSaw = w.staffStream.messages.filter((m) => aboutP1(m.data));
    expect(new Set(staffSaw.map((m) => m.event))).toEqual(
      new Set(['OrderStateChanged', 'ResourceStateChanged', 'VmChanged']),
    );
    await w.otherProjectStream.waitFor(hasMarker, 30_000, "the marker on P2's member's stream");
    expect(w.otherProjectStream.messages.filter((m) => aboutP1(m.data))).toEqual([]);

    const firstId = Math.min(...staffSaw.map((m) => Number(m.id)));
    const replay = await SseClient.open(`${w.api.base}/api/events`, {
      token: w.token('other-project-member') as string,
      lastEventId: firstId - 1,
    });
    try {
      expect(replay.status).toBe(200);
      await replay.waitFor(hasMarker, 30_000, 'the marker on the replay');
      // The marker was already past: it arrives only if the replay started where it was asked to.
      expect(replay.messages.filter((m) => aboutP1(m.data))).toEqual([]);
    } finally {
      replay.close();
    }
  });

  it('has a rule in x-access, and a way to call it, for every route of the document', () => {
    expect(undeclared).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  });

  it('answers every GET (and stream) as declared, for every role', async () => {
    const mismatches: string[] = [];
    await pool(
      cells((route) => route.method === 'GET'),
      12,
      async ({ route, role }) => {
        const exact = route.rule.see === route.rule.act || route.stream;
        const problem = check(route, role, expected(route, role), await call(route, role), exact);
        if (problem) mismatches.push(problem);
      },
    );
    expect(mismatches.sort()).toEqual([]);
  });

  it('refuses every state change to the roles the declaration refuses (before any allowed call)', async () => {
    const mismatches: string[] = [];
    await pool(
      cells((route, role) => route.method !== 'GET' && !expected(route, role).allowed),
      12,
      async ({ route, role }) => {
        const problem = check(route, role, expected(route, role), await call(route, role), false);
        if (problem) mismatches.push(problem);
      },
    );
    expect(mismatches.sort()).toEqual([]);
  });

  it('lets every allowed role through each state change (409 for a state that does not allow it is fine)', async () => {
    const mismatches: string[] = [];
    const writes = routes.filter((route) => route.method !== 'GET');
    for (const stage of [1, 2, 3, 4, 5]) {
      const inStage = writes.filter((route) => (route.spec.stage ?? 1) === stage);
      // Credentials (stage 5) one at a time: a revocation must not race another route's call.
      await pool(inStage, stage === 5 ? 1 : 6, async (route) => {
        for (const role of MATRIX_ROLES.filter((r) => expected(route, r).allowed)) {
          const unready = await route.spec.before?.(w);
          if (typeof unready === 'string') {
            mismatches.push(`${route.method} ${route.path} (${route.id}) as ${role}: ${unready}`);
            continue;
          }
          const object = (await route.spec.fresh?.(w, made)) ?? (await route.spec.current?.(w));
          const path = object ? route.path.replace(/[0-9a-f-]{36}/, object) : route.path;
          const answer = await call(route, role, path);
          await route.spec.after?.(w, role);
          const body = answer.body as Json | undefined;
          if (route.id === 'vmware_virtual_machine_create_disk' && answer.status === 201)
            made.disks.push(body!.uuid as string);
          if (route.id === 'vmware_virtual_machine_create_port' && answer.status === 201)
            made.ports.push(body!.uuid as string);
          const problem = check(route, role, { allowed: true }, answer, false);
          if (problem) mismatches.push(problem);
        }
      });
    }
    expect(mismatches.sort()).toEqual([]);
  });
});
