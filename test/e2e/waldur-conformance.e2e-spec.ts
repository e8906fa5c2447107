import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer, Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import { orderVm, operationEnd, eventually, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';
import { requestBody, type BodyVariant } from '../support/waldur-bodies';
import { compatibilityTable, readExemptions, README_END, README_START } from '../support/waldur-exemptions';
import { WALDUR_FIXTURE, WaldurSchema, type WaldurOperation } from '../support/waldur-schema';

jest.setTimeout(240_000);

/** Deliberate differences from Waldur, each with its reason (the README's table is made from it). */
const EXEMPTIONS = readExemptions();

type World = Record<string, string> & { base: string };
type Known = Record<string, unknown>;

/**
 * How the test calls one shared operation: who, on which objects (from the world built so far), with
 * which real values for the body's link fields. `after` keeps what the answer made for later cases.
 */
interface Case {
  operationId: string;
  who: string;
  path: (w: World) => string;
  known?: (w: World, variant: BodyVariant) => Known;
  /** Only the variant(s) that make sense once (a state change, say). */
  variants?: BodyVariant[];
  after?: (w: World, body: Json, variant: BodyVariant | null) => Promise<void> | void;
  /** Waits for the state the next case needs (an operation to end). */
  settle?: (w: World, answer: Answer<Json>) => Promise<void>;
}

const url = (w: World, collection: string, uuid: string) => `${w.base}/api/${collection}/${uuid}/`;

function conformanceSuite(): void {
  const waldur = new WaldurSchema();
  let market: VsphereMarketplace;
  let vmStream: SseClient;
  const w = {} as World;

  /** A VM power or device operation's end, from the VmChanged stream. */
  async function operationDone(answer: Answer<Json>): Promise<void> {
    const operation = answer.body as { uuid: string; vm_uuid: string };
    const ended = await operationEnd(vmStream, operation, 60_000);
    expect(ended.operation?.state).toBe('done');
  }

  async function orderState(uuid: string, states: string[]): Promise<void> {
    await eventually(
      () => market.api.ok<Json>('staff', 'GET', `/api/marketplace-orders/${uuid}/`),
      (order) => states.includes(order.state as string),
      60_000,
      `order ${uuid} in ${states.join('|')}`,
    );
  }

  /** An order of the Marketplace.Basic offering the test made (pending the provider, or the consumer for an admin's). */
  async function basicOrder(key: string, who = 'member'): Promise<void> {
    const order = await market.api.ok<Json>(who, 'POST', '/api/marketplace-orders/', {
      offering: url(w, 'marketplace-public-offerings', w.basicOffering),
      project: url(w, 'projects', market.project.uuid),
      plan: url(w, 'marketplace-plans', w.basicPlan),
      accepting_terms_of_service: true,
    });
    w[key] = order.uuid as string;
  }

  beforeAll(async () => {
    market = await VsphereMarketplace.start('waldurconf');
    w.base = market.api.base;
    const placement = await market.vmPlacement();
    w.network = placement.network.uuid;
    w.folder = placement.folder.uuid;
    w.offering = market.offering.uuid;
    w.plan = market.offering.plans[0].uuid;
    w.customer = market.customer.uuid;
    w.project = market.project.uuid;
    w.template = market.templates[0].uuid;
    w.member = market.api.users.member;
    // Adapters of existing VMs go on networks assigned for them (VM Network), new VMs on DC0_DVPG0.
    const networks = await market.inventory('vmware-networks');
    w.existingVmNetwork = (networks.find((n) => n.name === 'VM Network') as { uuid: string }).uuid;
    await market.api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: w.customer,
      network: w.existingVmNetwork,
    });
    vmStream = await SseClient.open(`${w.base}/api/events?type=VmChanged`, {
      token: market.api.tokens.member,
    });
    const vm: Vm = await orderVm(market, 'conformance-vm', placement);
    w.vm = vm.uuid;
    w.resource = vm.marketplace_resource_uuid;
    w.disk = vm.disks[0].uuid;
    w.port = vm.ports[0].uuid;
    for (const name of ['grantee-1', 'grantee-2']) await market.api.user(name, 'staff');
  });

  afterAll(async () => {
    vmStream?.close();
    await market?.stop();
  });

  const CASES: Case[] = [
    // Identity: lists and objects first, then the objects the test makes, changes and deletes.
    { operationId: 'users_me_retrieve', who: 'member', path: () => '/api/users/me/' },
    { operationId: 'users_list', who: 'staff', path: () => '/api/users/' },
    { operationId: 'users_retrieve', who: 'staff', path: (w) => `/api/users/${w.member}/` },
    {
      operationId: 'users_create',
      who: 'staff',
      path: () => '/api/users/',
      known: (_w, variant) => ({ username: `conformance-${variant}`, email: `${variant}@example.com` }),
      after: (w, body, variant) => {
        w[`user-${variant}`] = body.uuid as string;
      },
    },
    {
      operationId: 'users_partial_update',
      who: 'staff',
      path: (w) => `/api/users/${w['user-required']}/`,
      known: () => ({ username: 'conformance-renamed', email: 'renamed@example.com' }),
    },
    {
      operationId: 'users_change_password',
      who: 'staff',
      path: (w) => `/api/users/${w['user-required']}/`.concat('change_password/'),
      known: () => ({ new_password: 'Conformance-Passw0rd-Long' }),
    },
    {
      operationId: 'users_refresh_token',
      who: 'staff',
      path: (w) => `/api/users/${w['user-all']}/refresh_token/`,
    },
    { operationId: 'customers_list', who: 'member', path: () => '/api/customers/' },
    { operationId: 'customers_retrieve', who: 'member', path: (w) => `/api/customers/${w.customer}/` },
    {
      operationId: 'customers_create',
      who: 'staff',
      path: () => '/api/customers/',
      known: (_w, variant) => ({ name: `Conformance ${variant}` }),
      after: (w, body, variant) => {
        w[`customer-${variant}`] = body.uuid as string;
      },
    },
    {
      operationId: 'customers_partial_update',
      who: 'staff',
      path: (w) => `/api/customers/${w['customer-required']}/`,
      known: () => ({ name: 'Conformance renamed' }),
    },
    {
      operationId: 'customers_add_user',
      who: 'staff',
      path: (w) => `/api/customers/${w['customer-required']}/add_user/`,
      known: (w, variant) => ({
        user: market.api.users[variant === 'required' ? 'grantee-1' : 'grantee-2'],
        role: 'CUSTOMER.OWNER',
      }),
    },
    {
      operationId: 'customers_delete_user',
      who: 'staff',
      path: (w) => `/api/customers/${w['customer-required']}/delete_user/`,
      known: (w, variant) => ({
        user: market.api.users[variant === 'required' ? 'grantee-1' : 'grantee-2'],
        role: 'CUSTOMER.OWNER',
      }),
    },
    { operationId: 'projects_list', who: 'member', path: () => '/api/projects/' },
    { operationId: 'projects_retrieve', who: 'member', path: (w) => `/api/projects/${w.project}/` },
    {
      operationId: 'projects_create',
      who: 'member',
      path: () => '/api/projects/',
      known: (w, variant) => ({ name: `Conformance ${variant}`, customer: url(w, 'customers', w.customer) }),
      after: (w, body, variant) => {
        w[`project-${variant}`] = body.uuid as string;
      },
    },
    {
      operationId: 'projects_partial_update',
      who: 'member',
      path: (w) => `/api/projects/${w['project-required']}/`,
      known: (w) => ({ name: 'Conformance renamed', customer: url(w, 'customers', w.customer) }),
    },
    {
      operationId: 'projects_add_user',
      who: 'staff',
      path: (w) => `/api/projects/${w.project}/add_user/`,
      known: (w, variant) => ({
        user: market.api.users[variant === 'required' ? 'grantee-1' : 'grantee-2'],
        role: variant === 'required' ? 'PROJECT.ADMIN' : 'PROJECT.MEMBER',
      }),
    },
    // Marketplace: the vCenter offering, and a Marketplace.Basic one made here for the review flow.
    {
      operationId: 'marketplace_public_offerings_list',
      who: 'member',
      path: () => '/api/marketplace-public-offerings/',
    },
    {
      operationId: 'marketplace_public_offerings_retrieve',
      who: 'member',
      path: (w) => `/api/marketplace-public-offerings/${w.offering}/`,
    },
    {
      operationId: 'marketplace_provider_offerings_list',
      who: 'staff',
      path: () => '/api/marketplace-provider-offerings/',
    },
    {
      operationId: 'marketplace_provider_offerings_retrieve',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w.offering}/`,
    },
    {
      operationId: 'marketplace_provider_offerings_create',
      who: 'staff',
      path: () => '/api/marketplace-provider-offerings/',
      known: (w, variant) => ({
        name: `Conformance ${variant}`,
        type: 'Marketplace.Basic',
        customer: url(w, 'customers', w.customer),
      }),
      after: (w, body, variant) => {
        w[`offering-${variant}`] = body.uuid as string;
        w[`offeringPlan-${variant}`] = ((body.plans as Json[])[0]?.uuid as string) ?? '';
      },
    },
    { operationId: 'marketplace_plans_list', who: 'member', path: () => '/api/marketplace-plans/' },
    {
      operationId: 'marketplace_plans_retrieve',
      who: 'member',
      path: (w) => `/api/marketplace-plans/${w.plan}/`,
    },
    {
      operationId: 'marketplace_plans_update_prices',
      who: 'staff',
      path: (w) => `/api/marketplace-plans/${w.plan}/update_prices/`,
      known: () => ({ prices: { cpu: '1.00' } }),
    },
    {
      operationId: 'marketplace_provider_offerings_activate',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w['offering-required']}/activate/`,
      after: async (w) => {
        w.basicOffering = w['offering-required'];
        w.basicPlan = w['offeringPlan-required'];
        for (const key of ['pendingA', 'pendingB', 'pendingC', 'pendingD']) await basicOrder(key);
        // A project admin's orders wait for the consumer's review.
        for (const key of ['pendingE', 'pendingF']) await basicOrder(key, 'grantee-1');
      },
    },
    { operationId: 'marketplace_orders_list', who: 'member', path: () => '/api/marketplace-orders/' },
    {
      operationId: 'marketplace_orders_retrieve',
      who: 'member',
      path: (w) => `/api/marketplace-orders/${w.pendingA}/`,
    },
    {
      operationId: 'marketplace_orders_create',
      who: 'member',
      path: () => '/api/marketplace-orders/',
      known: (w) => ({
        offering: url(w, 'marketplace-public-offerings', w.basicOffering),
        project: url(w, 'projects', w.project),
        plan: url(w, 'marketplace-plans', w.basicPlan),
        accepting_terms_of_service: true,
      }),
    },
    {
      operationId: 'marketplace_orders_approve_by_provider',
      who: 'staff',
      path: (w) => `/api/marketplace-orders/${w.pendingA}/approve_by_provider/`,
      variants: ['required'],
      settle: async () => orderState(w.pendingA, ['executing']),
    },
    {
      operationId: 'marketplace_orders_set_state_done',
      who: 'staff',
      path: (w) => `/api/marketplace-orders/${w.pendingA}/set_state_done/`,
    },
    {
      operationId: 'marketplace_orders_reject_by_provider',
      who: 'staff',
      path: (w) => `/api/marketplace-orders/${w.pendingB}/reject_by_provider/`,
      variants: ['required'],
    },
    {
      operationId: 'marketplace_orders_set_state_erred',
      who: 'staff',
      path: (w) => `/api/marketplace-orders/${w.pendingC}/set_state_erred/`,
      variants: ['required'],
    },
    {
      operationId: 'marketplace_orders_cancel',
      who: 'member',
      path: (w) => `/api/marketplace-orders/${w.pendingD}/cancel/`,
    },
    {
      operationId: 'marketplace_orders_approve_by_consumer',
      who: 'member',
      path: (w) => `/api/marketplace-orders/${w.pendingE}/approve_by_consumer/`,
    },
    {
      operationId: 'marketplace_orders_reject_by_consumer',
      who: 'member',
      path: (w) => `/api/marketplace-orders/${w.pendingF}/reject_by_consumer/`,
      variants: ['required'],
    },
    {
      operationId: 'marketplace_provider_offerings_pause',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w['offering-required']}/pause/`,
      variants: ['required'],
    },
    {
      operationId: 'marketplace_provider_offerings_archive',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w['offering-required']}/archive/`,
    },
    {
      operationId: 'marketplace_provider_offerings_sync',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w.offering}/sync/`,
    },
    {
      operationId: 'marketplace_public_offerings_plans_list',
      who: 'member',
      path: (w) => `/api/marketplace-public-offerings/${w.offering}/plans/`,
    },
    {
      operationId: 'marketplace_public_offerings_plans_retrieve',
      who: 'member',
      path: (w) => `/api/marketplace-public-offerings/${w.offering}/plans/${w.plan}/`,
    },
    { operationId: 'marketplace_resources_list', who: 'member', path: () => '/api/marketplace-resources/' },
    {
      operationId: 'marketplace_resources_retrieve',
      who: 'member',
      path: (w) => `/api/marketplace-resources/${w.resource}/`,
    },
    // vSphere inventory and the VM.
    { operationId: 'vmware_templates_list', who: 'member', path: () => '/api/vmware-templates/' },
    {
      operationId: 'vmware_clusters_list',
      who: 'staff',
      path: (w) => `/api/vmware-clusters/?offering_uuid=${w.offering}`,
    },
    {
      operationId: 'vmware_networks_list',
      who: 'staff',
      path: (w) => `/api/vmware-networks/?offering_uuid=${w.offering}`,
    },
    {
      operationId: 'vmware_datastores_list',
      who: 'staff',
      path: (w) => `/api/vmware-datastores/?offering_uuid=${w.offering}`,
    },
    {
      operationId: 'vmware_folders_list',
      who: 'staff',
      path: (w) => `/api/vmware-folders/?offering_uuid=${w.offering}`,
    },
    {
      operationId: 'vmware_limits_retrieve',
      who: 'member',
      path: (w) => `/api/vmware-limits/${w.offering}/`,
    },
    { operationId: 'vmware_virtual_machine_list', who: 'member', path: () => '/api/vmware-virtual-machine/' },
    {
      operationId: 'vmware_virtual_machine_retrieve',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/`,
    },
    { operationId: 'vmware_disks_list', who: 'member', path: () => '/api/vmware-disks/' },
    { operationId: 'vmware_disks_retrieve', who: 'member', path: (w) => `/api/vmware-disks/${w.disk}/` },
    { operationId: 'vmware_ports_list', who: 'member', path: () => '/api/vmware-ports/' },
    { operationId: 'vmware_ports_retrieve', who: 'member', path: (w) => `/api/vmware-ports/${w.port}/` },
    {
      operationId: 'vmware_virtual_machine_console_retrieve',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/console/`,
    },
    {
      operationId: 'vmware_virtual_machine_web_console_retrieve',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/web_console/`,
    },
    {
      operationId: 'vmware_virtual_machine_pull',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/pull/`,
      settle: (_w, answer) => operationDone(answer),
    },
    // reboot_guest and shutdown_guest (exempt here) would come after start.
    ...(['reset', 'suspend', 'start', 'reboot_guest', 'shutdown_guest', 'stop'] as const).map(
      (action): Case => ({
        operationId: `vmware_virtual_machine_${action}`,
        who: 'member',
        path: (w) => `/api/vmware-virtual-machine/${w.vm}/${action}/`,
        settle: (_w, answer) => operationDone(answer),
      }),
    ),
    {
      operationId: 'marketplace_resources_update_limits',
      who: 'member',
      path: (w) => `/api/marketplace-resources/${w.resource}/update_limits/`,
      // On the stopped VM, before disks are added: only cpu and ram change by an update order.
      known: () => ({ limits: { cpu: 2, ram: 2048 } }),
      variants: ['required'],
      settle: async (_w, answer) => orderState(answer.body.order_uuid as string, ['done']),
    },
    {
      operationId: 'vmware_virtual_machine_partial_update',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/`,
      known: () => ({ name: 'conformance-vm' }),
      settle: (_w, answer) => operationDone(answer),
    },
    {
      operationId: 'vmware_virtual_machine_update',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/`,
      known: (w) => ({
        name: 'conformance-vm',
        project: url(w, 'projects', w.project),
        service_settings: url(w, 'marketplace-public-offerings', w.offering),
      }),
      settle: (_w, answer) => operationDone(answer),
    },
    {
      operationId: 'vmware_virtual_machine_create_disk',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/create_disk/`,
      known: () => ({ size: 1024 }),
      after: (w, body, variant) => {
        w[`disk-${variant}`] = body.uuid as string;
      },
      settle: async (_w, answer) => {
        await eventually(
          () => market.api.ok<Json>('member', 'GET', `/api/vmware-disks/${answer.body.uuid as string}/`),
          (disk) => disk.state === 'OK',
          60_000,
          'the new disk to be OK',
        );
      },
    },
    {
      operationId: 'vmware_disks_extend',
      who: 'member',
      path: (w) => `/api/vmware-disks/${w['disk-required']}/extend/`,
      known: () => ({ size: 2048 }),
      variants: ['required'],
      settle: (_w, answer) => operationDone(answer),
    },
    {
      operationId: 'vmware_virtual_machine_create_port',
      who: 'member',
      path: (w) => `/api/vmware-virtual-machine/${w.vm}/create_port/`,
      known: (w) => ({ network: url(w, 'vmware-networks', w.existingVmNetwork) }),
      variants: ['required'],
      after: (w, body) => {
        w.newPort = body.uuid as string;
      },
      settle: async (_w, answer) => {
        await eventually(
          () => market.api.ok<Json>('member', 'GET', `/api/vmware-ports/${answer.body.uuid as string}/`),
          (port) => port.state === 'OK',
          60_000,
          'the new port to be OK',
        );
      },
    },
    {
      operationId: 'vmware_ports_destroy',
      who: 'member',
      path: (w) => `/api/vmware-ports/${w.newPort}/`,
      settle: (_w, answer) => (answer.status === 204 ? Promise.resolve() : operationDone(answer)),
    },
    {
      operationId: 'vmware_disks_destroy',
      who: 'member',
      path: (w) => `/api/vmware-disks/${w['disk-required']}/`,
      settle: (_w, answer) => (answer.status === 204 ? Promise.resolve() : operationDone(answer)),
    },
    {
      operationId: 'marketplace_resources_terminate',
      who: 'member',
      path: (w) => `/api/marketplace-resources/${w.resource}/terminate/`,
      variants: ['required'],
      settle: async (_w, answer) => orderState(answer.body.order_uuid as string, ['done']),
    },
    {
      // The vCenter offering's own settings again: saving them re-synchronises, changes nothing.
      operationId: 'marketplace_provider_offerings_update_integration',
      who: 'staff',
      path: (w) => `/api/marketplace-provider-offerings/${w.offering}/update_integration/`,
      known: () => ({
        service_attributes: {
          backend_url: market.sim.url,
          username: market.sim.username,
          password: market.sim.password,
          verify_ssl: true,
          ca_pem: market.sim.caPem,
        },
      }),
    },
    // Deletions last.
    {
      operationId: 'projects_delete_user',
      who: 'staff',
      path: (w) => `/api/projects/${w.project}/delete_user/`,
      known: (w, variant) => ({
        user: market.api.users[variant === 'required' ? 'grantee-1' : 'grantee-2'],
        role: variant === 'required' ? 'PROJECT.ADMIN' : 'PROJECT.MEMBER',
      }),
    },
    { operationId: 'projects_destroy', who: 'member', path: (w) => `/api/projects/${w['project-all']}/` },
    { operationId: 'customers_destroy', who: 'staff', path: (w) => `/api/customers/${w['customer-all']}/` },
    { operationId: 'users_destroy', who: 'staff', path: (w) => `/api/users/${w['user-all']}/` },
  ];

  const shared = [...waldur.operations.keys()];

  it('has a case or an exemption for every operation it shares with Waldur, and no stale exemption', () => {
    const covered = new Set([...CASES.map((c) => c.operationId), ...Object.keys(EXEMPTIONS.skip)]);
    expect(shared.filter((id) => !covered.has(id))).toEqual([]);
    const known = new Set(shared);
    const named = [...Object.keys(EXEMPTIONS.skip), ...Object.keys(EXEMPTIONS.status)];
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });

  it("has the README's Waldur compatibility table made from the exemptions file", () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const table = readme.slice(
      readme.indexOf(README_START) + README_START.length,
      readme.indexOf(README_END),
    );
    expect(table.trim()).toBe(compatibilityTable(EXEMPTIONS));
  });

  /** An exemption of `Component.a` covers `Component.a` and what is under it (`Component.a.b`). */
  const exemptField = (field: string) =>
    Object.keys(EXEMPTIONS.fields).some((key) => field === key || field.startsWith(`${key}.`));

  /** Everything about one answer that does not match Waldur's document, as lines of text. */
  function check(op: WaldurOperation, answer: Answer<Json>): string[] {
    const problems: string[] = [];
    const documented = Object.keys(op.responses).map(Number);
    const expected = EXEMPTIONS.status[op.operationId]?.status;
    if (expected !== undefined ? answer.status !== expected : !documented.includes(answer.status))
      return [`status ${answer.status} (Waldur: ${documented.join('|')}): ${answer.text.slice(0, 1500)}`];
    const response = op.responses[String(answer.status)];
    for (const header of response?.headers ?? [])
      if (!answer.headers.has(header)) problems.push(`header ${header} missing`);
    if (response?.schema && response.schema.type === 'array' && !answer.headers.has('link'))
      problems.push('header Link missing on a list');
    if (response?.schema)
      for (const mismatch of waldur.mismatches(response.schema, answer.body, 'response'))
        if (!exemptField(mismatch.field)) problems.push(`${mismatch.field}: ${mismatch.message}`);
    return problems;
  }

  for (const c of CASES) {
    const exempt = EXEMPTIONS.skip[c.operationId];
    const name = `${c.operationId} answers as Waldur's document says`;
    if (exempt !== undefined) {
      it.skip(`${name} (exempt: ${exempt})`, () => undefined);
      continue;
    }
    it(name, async () => {
      const op = waldur.operations.get(c.operationId) as WaldurOperation;
      const variants: (BodyVariant | null)[] = op.requestBody ? (c.variants ?? ['required', 'all']) : [null];
      const problems: string[] = [];
      for (const variant of variants) {
        let body: Json | undefined;
        if (op.requestBody && variant !== null) {
          const component = String(op.requestBody.schema.$ref).split('/').pop() as string;
          const refused = EXEMPTIONS.requestFields[component]?.fields ?? [];
          const alsoRequired = EXEMPTIONS.requiredFields[component]?.fields ?? [];
          const known = c.known?.(w, variant) ?? {};
          body = requestBody(waldur, op.requestBody.schema, variant, known, refused, alsoRequired);
          // The body is one Waldur's document describes (but for fields we refuse, which it leaves out).
          const misfits = waldur
            .mismatches(op.requestBody.schema, body, 'request')
            .filter((m) => !refused.includes(m.field.split('.')[1]));
          expect(misfits).toEqual([]);
        }
        if (op.requestBody && variant === 'all') {
          // The fields the exemptions say we refuse are refused, each named, and nothing else is.
          const component = String(op.requestBody.schema.$ref).split('/').pop() as string;
          const refused = EXEMPTIONS.requestFields[component]?.fields ?? [];
          if (refused.length > 0) {
            const full = requestBody(waldur, op.requestBody.schema, 'all', c.known?.(w, 'all') ?? {});
            const answer = await market.api.call<Json>(c.who, op.method.toUpperCase(), c.path(w), full);
            const named = answer.status === 400 ? Object.keys(answer.body).sort() : [];
            if (
              answer.status !== 400 ||
              named.join() !==
                refused
                  .filter((f) => f in full)
                  .sort()
                  .join()
            )
              problems.push(`all fields: ${answer.status} naming ${named.join()}, exempt: ${refused.join()}`);
          }
        }
        const answer = await market.api.call<Json>(c.who, op.method.toUpperCase(), c.path(w), body);
        problems.push(
          ...check(op, answer).map(
            (line) => `${variant ?? ''} ${JSON.stringify(body ?? {}).slice(0, 300)}: ${line}`,
          ),
        );
        if (answer.status < 300) {
          await c.after?.(w, answer.body, variant);
          await c.settle?.(w, answer);
        }
      }
      expect(problems).toEqual([]);
    });
  }
}

const TITLE = "Waldur's published OpenAPI document as the contract, on vcsim";
// Waldur's document comes from a fetched public snapshot, which this repository may not commit: the
// suite runs where the trimmed copy has been made (test/fixtures/waldur-openapi/, or the steering
// repository's shared/waldur-openapi/), and is reported skipped, naming what it needs, where not.
if (existsSync(WALDUR_FIXTURE)) describe(TITLE, conformanceSuite);
else
  describe(TITLE, () => {
    it.skip(`needs ${WALDUR_FIXTURE}, made by scripts/waldur-openapi-trim.js from Waldur's document`, () => {});
  });
