import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  OrderDoneEvent,
  OrderErredEvent,
  type Envelope,
  type OrderStateChanged,
  type ResourceStateChanged,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import type { ApiSession, Json } from '../support/api-session';
import { ApiSystem } from '../support/api-system';
import type { TestNats } from '../support/test-nats';
import { eventually } from '../support/virtual-machines';

jest.setTimeout(120_000);

type Order = Json & { uuid: string; state: string; marketplace_resource_uuid: string };
type Resource = Json & { uuid: string; state: string; limits: Record<string, number> };
type Offering = Json & { uuid: string; plans: (Json & { uuid: string; url: string })[] };

/**
 * The marketplace order flow through the gateway, for `Marketplace.Basic` offerings (VMware orders
 * need the vSphere adapter's validation: the lead's e2e covers them): validation, dry run, review
 * routing, the provider's manual completion, update and terminate orders, visibility, filters, and
 * the events each change writes.
 */
describe('marketplace orders and resources through the gateway', () => {
  let system: ApiSystem;
  let nats: TestNats;
  let api: ApiSession;
  let orgA: string;
  let orgB: string;
  let providerOrg: string;
  let projectA: string;
  let projectB: string;
  let basic: Offering;

  beforeAll(async () => {
    system = await ApiSystem.start('orders');
    nats = system.nats;
    api = await system.session();
    for (const name of ['provider', 'owner-a', 'manager-a', 'admin-a', 'member-a', 'owner-b'])
      await api.user(name, 'staff');
    providerOrg = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Provider' })).uuid as string;
    orgA = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Org A' })).uuid as string;
    orgB = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Org B' })).uuid as string;
    const own = (org: string, user: string) =>
      api.ok('staff', 'POST', `/api/customers/${org}/add_user/`, {
        user: api.users[user],
        role: 'CUSTOMER.OWNER',
      });
    await own(providerOrg, 'provider');
    await own(orgA, 'owner-a');
    await own(orgB, 'owner-b');
    projectA = (await api.ok('owner-a', 'POST', '/api/projects/', { name: 'A1', customer: orgA }))
      .uuid as string;
    projectB = (await api.ok('owner-b', 'POST', '/api/projects/', { name: 'B1', customer: orgB }))
      .uuid as string;
    for (const [user, role] of [
      ['manager-a', 'PROJECT.MANAGER'],
      ['admin-a', 'PROJECT.ADMIN'],
      ['member-a', 'PROJECT.MEMBER'],
    ])
      await api.ok('staff', 'POST', `/api/projects/${projectA}/add_user/`, { user: api.users[user], role });
    basic = await offering('Consulting', { activate: true });
  });

  afterAll(async () => {
    await system?.stop();
  });

  async function offering(name: string, options: { activate: boolean; terms?: string }): Promise<Offering> {
    const created = await api.ok<Offering>('provider', 'POST', '/api/marketplace-provider-offerings/', {
      name,
      type: 'Marketplace.Basic',
      customer: providerOrg,
      ...(options.terms && { terms_of_service: options.terms }),
    });
    if (options.activate)
      await api.ok('provider', 'POST', `/api/marketplace-provider-offerings/${created.uuid}/activate/`);
    return created;
  }

  function body(overrides: Json = {}): Json {
    return {
      offering: `${api.base}/api/marketplace-public-offerings/${basic.uuid}/`,
      project: `${api.base}/api/projects/${projectA}/`,
      plan: basic.plans[0].url,
      attributes: { name: `consulting-${randomUUID().slice(0, 8)}`, description: 'two days' },
      limits: { days: 2 },
      ...overrides,
    };
  }

  async function place(who: string, overrides: Json = {}): Promise<Order> {
    const answer = await api.call<Order>(who, 'POST', '/api/marketplace-orders/', body(overrides));
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 201 });
    return answer.body;
  }

  const act = (who: string, order: string, action: string, payload?: Json) =>
    api.call<Json>(who, 'POST', `/api/marketplace-orders/${order}/${action}/`, payload);

  async function resourceOf(order: Order): Promise<Resource> {
    return api.ok<Resource>(
      'owner-a',
      'GET',
      `/api/marketplace-resources/${order.marketplace_resource_uuid}/`,
    );
  }

  async function counts(): Promise<{ orders: number; resources: number; outbox: number }> {
    const [row] = await api.sql<{ orders: number; resources: number; outbox: number }>(
      `SELECT (SELECT count(*)::int FROM marketplace.orders) AS orders,
              (SELECT count(*)::int FROM marketplace.resources) AS resources,
              (SELECT count(*)::int FROM marketplace.outbox) AS outbox`,
    );
    return row;
  }

  /** The feed events of an order and its resource as the outbox holds them, in commit order, once published. */
  async function feedOf(orderUuid: string, resourceUuid: string): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await api.sql<{ envelope: Envelope; published: boolean }>(
        `SELECT envelope, published_at IS NOT NULL AS published FROM marketplace.outbox
         WHERE aggregate = $1 OR aggregate = $2 ORDER BY seq`,
        [orderUuid, resourceUuid],
      );
      if (rows.every((row) => row.published) || Date.now() > deadline)
        return rows.map(({ envelope, published }) => {
          const tag = published ? '' : ' (unpublished)';
          if (envelope.type === 'OrderStateChanged') {
            const data = envelope.data as OrderStateChanged;
            return `order ${data.previous_state} → ${data.order.state}${tag}`;
          }
          if (envelope.type === 'ResourceStateChanged') {
            const data = envelope.data as ResourceStateChanged;
            return `resource ${data.previous_state} → ${data.resource.state}${tag}`;
          }
          return `${envelope.type}${tag}`;
        });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('validation, before anything is stored', () => {
    it('refuses an offering that is not active', async () => {
      const draft = await offering('Not yet', { activate: false });
      const answer = await api.call(
        'manager-a',
        'POST',
        '/api/marketplace-orders/',
        body({ offering: draft.uuid, plan: undefined }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ offering: ['Offering is not available.'] });
    });

    it("refuses another offering's plan", async () => {
      const other = await offering('Other', { activate: true });
      const answer = await api.call(
        'manager-a',
        'POST',
        '/api/marketplace-orders/',
        body({ plan: other.plans[0].url }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ plan: ['This plan is not available for selected offering.'] });
    });

    it('answers 404 for a project the caller cannot see, 403 for one they may only look at', async () => {
      const hidden = await api.call<Json>('owner-b', 'POST', '/api/marketplace-orders/', body());
      expect(hidden.status).toBe(404);
      const member = await api.call<Json>('member-a', 'POST', '/api/marketplace-orders/', body());
      expect(member.status).toBe(403);
    });

    it('requires the terms of service where the offering has them', async () => {
      const withTerms = await offering('Audit', { activate: true, terms: 'No refunds.' });
      const refused = await api.call(
        'manager-a',
        'POST',
        '/api/marketplace-orders/',
        body({ offering: withTerms.uuid, plan: undefined }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        accepting_terms_of_service: ["Terms of service for offering 'Audit' have not been accepted."],
      });
      await place('manager-a', {
        offering: withTerms.uuid,
        plan: undefined,
        accepting_terms_of_service: true,
      });
    });

    it('answers a dry run with the order it would create, and creates nothing', async () => {
      const before = await counts();
      const answer = await api.call<Json>(
        'manager-a',
        'POST',
        '/api/marketplace-orders/?dry_run=true',
        body(),
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        type: 'Create',
        offering_uuid: basic.uuid,
        project_uuid: projectA,
        project_name: 'A1',
        customer_uuid: orgA,
        customer_name: 'Org A',
        provider_uuid: providerOrg,
        provider_name: 'Provider',
        plan_uuid: basic.plans[0].uuid,
        cost: '0.00',
        project: `${api.base}/api/projects/${projectA}/`,
      });
      expect(answer.body.uuid).toBeUndefined();
      expect(await counts()).toEqual(before);
    });
  });

  describe('Marketplace.Basic: the provider reviews and completes by hand', () => {
    it('goes pending-provider → executing → done, the resource Creating → OK, each change an event in order', async () => {
      const order = await place('manager-a');
      expect(order).toMatchObject({
        state: 'pending-provider',
        type: 'Create',
        created_by_username: 'manager-a',
        url: `${api.base}/api/marketplace-orders/${order.uuid}/`,
        marketplace_resource: `${api.base}/api/marketplace-resources/${order.marketplace_resource_uuid}/`,
      });
      expect((await resourceOf(order)).state).toBe('Creating');
      // The consumer's side may not approve for the provider.
      expect((await act('owner-a', order.uuid, 'approve_by_provider')).status).toBe(403);
      expect((await act('provider', order.uuid, 'approve_by_provider')).body.state).toBe('executing');
      const done = await act('provider', order.uuid, 'set_state_done');
      expect(done.body).toMatchObject({ state: 'done' });
      expect(done.body.completed_at).toEqual(expect.any(String));
      const resource = await resourceOf(order);
      expect(resource).toMatchObject({ state: 'OK', limits: { days: 2 }, plan_uuid: basic.plans[0].uuid });
      expect(
        await api.ok<Resource>('manager-a', 'GET', `/api/marketplace-orders/${order.uuid}/resource/`),
      ).toMatchObject({ uuid: order.marketplace_resource_uuid, state: 'OK' });

      expect(await feedOf(order.uuid, order.marketplace_resource_uuid)).toEqual([
        'order null → pending-provider',
        'resource null → Creating',
        'order pending-provider → executing',
        'OrderSubmitted',
        'resource Creating → OK',
        'order executing → done',
      ]);
      const again = await act('provider', order.uuid, 'set_state_done');
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe('Order is done: only executing orders can be set to done.');
    });

    it('is rejected by the provider: the order rejected, its resource Terminated', async () => {
      const order = await place('owner-a');
      expect((await act('provider', order.uuid, 'reject_by_provider')).body.state).toBe('rejected');
      expect((await resourceOf(order)).state).toBe('Terminated');
      expect(await feedOf(order.uuid, order.marketplace_resource_uuid)).toEqual([
        'order null → pending-provider',
        'resource null → Creating',
        'resource Creating → Terminated',
        'order pending-provider → rejected',
      ]);
    });

    it('is canceled by its project', async () => {
      const order = await place('manager-a');
      expect((await act('manager-a', order.uuid, 'cancel')).body.state).toBe('canceled');
      expect((await resourceOf(order)).state).toBe('Terminated');
      expect((await act('manager-a', order.uuid, 'cancel')).status).toBe(409);
    });

    it("waits for the consumer's approvers when a project admin orders", async () => {
      const order = await place('admin-a');
      expect(order.state).toBe('pending-consumer');
      expect((await act('admin-a', order.uuid, 'approve_by_consumer')).status).toBe(403);
      expect((await act('member-a', order.uuid, 'approve_by_consumer')).status).toBe(403);
      expect((await act('owner-b', order.uuid, 'approve_by_consumer')).status).toBe(404);
      expect((await act('manager-a', order.uuid, 'approve_by_consumer')).body.state).toBe('pending-provider');
    });

    it('fails by hand with a message on the order and the resource, and is retried', async () => {
      const order = await place('owner-a');
      await act('provider', order.uuid, 'approve_by_provider');
      const erred = await act('provider', order.uuid, 'set_state_erred', {
        error_message: 'No consultant free.',
      });
      expect(erred.body).toMatchObject({ state: 'erred', error_message: 'No consultant free.' });
      expect(await resourceOf(order)).toMatchObject({ state: 'Erred', error_message: 'No consultant free.' });
      const retried = await act('owner-a', order.uuid, 'retry');
      expect(retried.body).toMatchObject({ state: 'executing', error_message: '' });
      expect((await resourceOf(order)).state).toBe('Creating');
      expect((await feedOf(order.uuid, order.marketplace_resource_uuid)).slice(-3)).toEqual([
        'order erred → executing',
        'resource Erred → Creating',
        'OrderSubmitted',
      ]);
    });
  });

  describe('update and terminate orders of a resource', () => {
    let resource: string;

    beforeAll(async () => {
      const order = await place('manager-a', { limits: { days: 2 } });
      await act('provider', order.uuid, 'approve_by_provider');
      await act('provider', order.uuid, 'set_state_done');
      resource = order.marketplace_resource_uuid;
    });

    it('changes the limits by an Update order, one pending order at a time', async () => {
      const { order_uuid } = await api.ok<{ order_uuid: string }>(
        'manager-a',
        'POST',
        `/api/marketplace-resources/${resource}/update_limits/`,
        { limits: { days: 5 } },
      );
      expect(
        (await api.ok<Resource>('manager-a', 'GET', `/api/marketplace-resources/${resource}/`)).state,
      ).toBe('Updating');
      const second = await api.call<Json>(
        'manager-a',
        'POST',
        `/api/marketplace-resources/${resource}/terminate/`,
        {},
      );
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ detail: 'Pending order for resource already exists.' });
      await act('provider', order_uuid, 'approve_by_provider');
      await act('provider', order_uuid, 'set_state_done');
      expect(
        await api.ok<Resource>('manager-a', 'GET', `/api/marketplace-resources/${resource}/`),
      ).toMatchObject({
        state: 'OK',
        limits: { days: 5 },
      });
    });

    it('terminates: Terminating, then Terminated when the provider is done', async () => {
      const { order_uuid } = await api.ok<{ order_uuid: string }>(
        'owner-a',
        'POST',
        `/api/marketplace-resources/${resource}/terminate/`,
        { attributes: { reason: 'finished' } },
      );
      const order = await api.ok<Order>('owner-a', 'GET', `/api/marketplace-orders/${order_uuid}/`);
      expect(order).toMatchObject({
        type: 'Terminate',
        state: 'pending-provider',
        attributes: { reason: 'finished' },
      });
      expect(
        (await api.ok<Resource>('owner-a', 'GET', `/api/marketplace-resources/${resource}/`)).state,
      ).toBe('Terminating');
      await act('provider', order_uuid, 'approve_by_provider');
      await act('provider', order_uuid, 'set_state_done');
      expect(
        (await api.ok<Resource>('owner-a', 'GET', `/api/marketplace-resources/${resource}/`)).state,
      ).toBe('Terminated');
      const gone = await api.call<Json>(
        'owner-a',
        'POST',
        `/api/marketplace-resources/${resource}/terminate/`,
        {},
      );
      expect(gone.status).toBe(409);
      expect(gone.body.detail).toBe('Resource is Terminated: only OK or Erred resources can be terminated.');
    });

    it("lets the provider's owner terminate what its offering provides, not change it", async () => {
      const created = await place('manager-a');
      await act('provider', created.uuid, 'approve_by_provider');
      await act('provider', created.uuid, 'set_state_done');
      const path = `/api/marketplace-resources/${created.marketplace_resource_uuid}`;
      expect(
        (await api.call('provider', 'POST', `${path}/update_limits/`, { limits: { days: 9 } })).status,
      ).toBe(403);
      const { order_uuid } = await api.ok<{ order_uuid: string }>(
        'provider',
        'POST',
        `${path}/terminate/`,
        {},
      );
      expect(await api.ok<Order>('provider', 'GET', `/api/marketplace-orders/${order_uuid}/`)).toMatchObject({
        type: 'Terminate',
        state: 'pending-provider',
        created_by_username: 'provider',
      });
      expect((await api.call('owner-b', 'POST', `${path}/terminate/`, {})).status).toBe(404);
    });

    it('refuses a disk change of a VM by an Update order, naming disk', async () => {
      // A VM resource as the vSphere flow leaves it; the disk rule is the order service's own.
      const [vm] = await api.sql<{ offering: string; resource: string }>(
        `WITH o AS (INSERT INTO marketplace.offerings (uuid, name, type, customer_uuid, state)
                    VALUES (gen_random_uuid(), 'VMs', 'VMware.VirtualMachine', $1, 'Active') RETURNING uuid),
              r AS (INSERT INTO marketplace.resources (uuid, name, state, offering_uuid, project_uuid, limits, backend_id)
                    SELECT gen_random_uuid(), 'vm-1', 'OK', o.uuid, $2, '{"cpu": 2, "ram": 2048, "disk": 10240}', 'vm-uuid' FROM o
                    RETURNING uuid, offering_uuid)
         SELECT offering_uuid AS offering, uuid AS resource FROM r`,
        [providerOrg, projectA],
      );
      const refused = await api.call<Json>(
        'manager-a',
        'POST',
        `/api/marketplace-resources/${vm.resource}/update_limits/`,
        {
          limits: { cpu: 4, disk: 20480 },
        },
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        disk: ['Disks cannot be changed by an update order: only cpu and ram can.'],
      });
    });
  });

  describe("the provider system's answers (OrderDone, OrderErred)", () => {
    async function executing(): Promise<Order> {
      const order = await place('owner-a', { limits: { days: 2 } });
      await act('provider', order.uuid, 'approve_by_provider');
      return order;
    }

    async function settled(uuid: string): Promise<Order> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const order = await api.ok<Order>('owner-a', 'GET', `/api/marketplace-orders/${uuid}/`);
        if (order.state !== 'executing' || Date.now() > deadline) return order;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('completes a Create: the resource OK with the backend object, its reference and its limits', async () => {
      const order = await executing();
      const done = buildEnvelope(
        OrderDoneEvent,
        {
          orderUuid: order.uuid,
          marketplaceResourceUuid: order.marketplace_resource_uuid,
          backendId: '42104b5c-6ba8-4d30-9ec2-0d4e3f1a7c88',
          backendRef: 'vm-42',
          limits: { days: 3 },
        },
        order.uuid,
      );
      await publishEvent(jetstream(nats.nc), nats.topology.subjects.orderDone, done);
      expect(await settled(order.uuid)).toMatchObject({
        state: 'done',
        resource_uuid: '42104b5c-6ba8-4d30-9ec2-0d4e3f1a7c88',
      });
      expect(await resourceOf(order)).toMatchObject({
        state: 'OK',
        resource_uuid: '42104b5c-6ba8-4d30-9ec2-0d4e3f1a7c88',
        backend_id: 'vm-42',
        limits: { days: 3 },
      });
    });

    it('takes an OrderErred as the version before the rename published it (resourceUuid): an upgrade consumes what waits in the stream', async () => {
      const order = await executing();
      const current = buildEnvelope(
        OrderErredEvent,
        {
          orderUuid: order.uuid,
          marketplaceResourceUuid: order.marketplace_resource_uuid,
          errorMessage: 'old adapter',
        },
        order.uuid,
      );
      // Written by hand: buildEnvelope knows only the new name.
      const legacy: Envelope = {
        ...current,
        data: {
          orderUuid: order.uuid,
          resourceUuid: order.marketplace_resource_uuid,
          errorMessage: 'old adapter',
        },
      };
      await publishEvent(jetstream(nats.nc), nats.topology.subjects.orderErred, legacy);
      expect(await settled(order.uuid)).toMatchObject({ state: 'erred', error_message: 'old adapter' });
      expect(await resourceOf(order)).toMatchObject({ state: 'Erred', error_message: 'old adapter' });
    });

    it('ignores a second answer for a done order (a new event id, as a late adapter sends it): the order stays done', async () => {
      const order = await executing();
      const answer = (type: typeof OrderDoneEvent | typeof OrderErredEvent) =>
        type === OrderDoneEvent
          ? buildEnvelope(
              OrderDoneEvent,
              {
                orderUuid: order.uuid,
                marketplaceResourceUuid: order.marketplace_resource_uuid,
                backendId: randomUUID(),
              },
              order.uuid,
            )
          : buildEnvelope(
              OrderErredEvent,
              {
                orderUuid: order.uuid,
                marketplaceResourceUuid: order.marketplace_resource_uuid,
                errorMessage: 'late',
              },
              order.uuid,
            );
      const js = jetstream(nats.nc);
      await publishEvent(js, nats.topology.subjects.orderDone, answer(OrderDoneEvent));
      expect(await settled(order.uuid)).toMatchObject({ state: 'done', error_message: '' });
      const late = answer(OrderErredEvent);
      await publishEvent(js, nats.topology.subjects.orderErred, late);

      // The order service has taken the late answer once its inbox holds it.
      await eventually(
        () => api.sql('SELECT 1 FROM marketplace.inbox WHERE event_id = $1', [late.id]),
        (rows) => rows.length === 1,
        10_000,
        'the late answer in the order service inbox',
      );
      expect(await api.ok<Order>('owner-a', 'GET', `/api/marketplace-orders/${order.uuid}/`)).toMatchObject({
        state: 'done',
        error_message: '',
      });
      expect(await resourceOf(order)).toMatchObject({ state: 'OK' });
    });

    it('fails an Update: the order erred and the resource Erred, both with the same message', async () => {
      const created = await executing();
      await act('provider', created.uuid, 'set_state_done');
      const { order_uuid } = await api.ok<{ order_uuid: string }>(
        'owner-a',
        'POST',
        `/api/marketplace-resources/${created.marketplace_resource_uuid}/update_limits/`,
        { limits: { days: 4 } },
      );
      await act('provider', order_uuid, 'approve_by_provider');
      const message = 'The attempted operation cannot be performed in the current state (Powered on).';
      const erred = buildEnvelope(
        OrderErredEvent,
        {
          orderUuid: order_uuid,
          marketplaceResourceUuid: created.marketplace_resource_uuid,
          errorMessage: message,
        },
        order_uuid,
      );
      await publishEvent(jetstream(nats.nc), nats.topology.subjects.orderErred, erred);
      expect(await settled(order_uuid)).toMatchObject({ state: 'erred', error_message: message });
      expect(await resourceOf(created)).toMatchObject({
        state: 'Erred',
        error_message: message,
        limits: { days: 2 },
      });
      expect((await feedOf(order_uuid, created.marketplace_resource_uuid)).slice(-6)).toEqual([
        'order null → pending-provider',
        'resource OK → Updating',
        'order pending-provider → executing',
        'OrderSubmitted',
        'resource Updating → Erred',
        'order executing → erred',
      ]);
    });
  });

  describe('lists: visibility and filters', () => {
    it("shows a second organisation none of the first's orders or resources", async () => {
      const mine = await place('owner-b', { project: projectB });
      const orders = await api.ok<Order[]>('owner-b', 'GET', '/api/marketplace-orders/?page_size=300');
      expect(orders.map((order) => order.uuid)).toEqual([mine.uuid]);
      const resources = await api.ok<Resource[]>(
        'owner-b',
        'GET',
        '/api/marketplace-resources/?page_size=300',
      );
      expect(resources.map((resource) => resource.uuid)).toEqual([mine.marketplace_resource_uuid]);
      const theirs = (await api.ok<Order[]>('owner-a', 'GET', '/api/marketplace-orders/?page_size=300'))[0];
      expect((await api.call('owner-b', 'GET', `/api/marketplace-orders/${theirs.uuid}/`)).status).toBe(404);
      expect(
        (await api.call('owner-b', 'GET', `/api/marketplace-resources/${theirs.marketplace_resource_uuid}/`))
          .status,
      ).toBe(404);
      // The provider sees the orders of its offerings, from every organisation.
      const provided = await api.ok<Order[]>(
        'provider',
        'GET',
        `/api/marketplace-orders/?provider_uuid=${providerOrg}&page_size=300`,
      );
      expect(provided.map((order) => order.customer_uuid)).toEqual(expect.arrayContaining([orgA, orgB]));
    });

    it('filters by state, type, project, customer, offering and resource', async () => {
      const all = await api.ok<Order[]>('staff', 'GET', '/api/marketplace-orders/?page_size=300');
      const check = async (query: string, keep: (order: Order) => boolean) => {
        const listed = await api.ok<Order[]>(
          'staff',
          'GET',
          `/api/marketplace-orders/?page_size=300&${query}`,
        );
        const expected = all.filter(keep).map((order) => order.uuid);
        expect(expected.length).toBeGreaterThan(0);
        expect(listed.map((order) => order.uuid)).toEqual(expected);
      };
      await check('state=done', (order) => order.state === 'done');
      await check('type=Terminate', (order) => order.type === 'Terminate');
      await check(`project_uuid=${projectB}`, (order) => order.project_uuid === projectB);
      await check(`customer_uuid=${orgA}`, (order) => order.customer_uuid === orgA);
      await check(`offering_uuid=${basic.uuid}`, (order) => order.offering_uuid === basic.uuid);
      const resource = all[all.length - 1].marketplace_resource_uuid;
      await check(`resource_uuid=${resource}`, (order) => order.marketplace_resource_uuid === resource);
      const ok = await api.ok<Resource[]>(
        'staff',
        'GET',
        '/api/marketplace-resources/?state=OK&page_size=300',
      );
      expect(ok.length).toBeGreaterThan(0);
      expect(ok.every((resource) => resource.state === 'OK')).toBe(true);
      const bad = await api.call<Json>('staff', 'GET', '/api/marketplace-orders/?state=finished');
      expect(bad.status).toBe(400);
    });
  });

  it('keeps a project that has orders from being deleted', async () => {
    await place('owner-b', { project: projectB });
    const refused = await api.call<Json>('staff', 'DELETE', `/api/projects/${projectB}/`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'The project has orders or resources: it cannot be deleted.' });
    expect((await api.call('owner-b', 'GET', `/api/projects/${projectB}/`)).status).toBe(200);
  });

  it('writes AccessChanged naming the user whose role, staff flag, activity or tokens changed', async () => {
    await api.user('late', 'staff');
    const late = api.users.late;
    const grant = { user: late, role: 'PROJECT.MEMBER' };
    await api.ok('staff', 'POST', `/api/projects/${projectA}/add_user/`, grant);
    await api.call('staff', 'POST', `/api/projects/${projectA}/delete_user/`, grant);
    await api.ok('staff', 'PATCH', `/api/users/${late}/`, { is_staff: true });
    await api.ok('staff', 'PATCH', `/api/users/${late}/`, { full_name: 'Late Comer' }); // changes nothing seen
    await api.call('staff', 'POST', `/api/users/${late}/revoke_tokens/`);
    await api.ok('staff', 'PATCH', `/api/users/${late}/`, { is_active: false });
    const rows = await api.sql<{ envelope: Envelope<{ user_uuids: string[] }> }>(
      `SELECT envelope FROM marketplace.outbox WHERE type = 'AccessChanged' ORDER BY seq`,
    );
    const naming = rows.filter((row) => row.envelope.data.user_uuids.includes(late));
    expect(naming).toHaveLength(5);
    expect(naming.every((row) => row.envelope.data.user_uuids.length === 1)).toBe(true);
  });
});
