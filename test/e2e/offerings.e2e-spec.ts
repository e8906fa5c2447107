import type { Envelope, OfferingChanged } from '@app/contracts';
import { ApiSession, type Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { readEnvelopes } from '../support/stream-reader';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';

jest.setTimeout(120_000);

type Offering = Json & { uuid: string; state: string; plans: (Json & { uuid: string; url: string })[] };

describe('offerings and plans through the gateway: providers publish, customers browse and estimate', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let apps: AppProcess[];
  let api: ApiSession;
  let provider: string;
  let other: string;

  beforeAll(async () => {
    db = await createTestDatabase('offerings');
    nats = await createTestNats('offerings');
    const port = await freePort();
    const env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    apps = [
      new AppProcess('order-service', env),
      new AppProcess('gateway', { ...env, GATEWAY_PORT: String(port) }),
    ];
    await Promise.all([apps[0].start(), apps[1].start('gateway listening')]);
    api = new ApiSession(`http://127.0.0.1:${port}`, db.url);
    await api.bootstrapStaff('staff', env);
    await api.user('owner', 'staff');
    await api.user('customer-user', 'staff');
    provider = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Provider Org' })).uuid as string;
    other = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Customer Org' })).uuid as string;
    await api.ok('staff', 'POST', `/api/customers/${provider}/add_user/`, {
      user: api.users.owner,
      role: 'CUSTOMER.OWNER',
    });
    await api.ok('staff', 'POST', `/api/customers/${other}/add_user/`, {
      user: api.users['customer-user'],
      role: 'CUSTOMER.OWNER',
    });
  });

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.stop()));
    await nats?.close();
    await db?.drop();
  });

  async function createBasic(name: string): Promise<Offering> {
    return api.ok<Offering>('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name,
      type: 'Marketplace.Basic',
      customer: `${api.base}/api/customers/${provider}/`,
      description: 'Handled by hand',
    });
  }

  it('creates a Draft with a Default plan; only the provider sees it until it is activated', async () => {
    const draft = await createBasic('Consulting');
    expect(draft).toMatchObject({
      state: 'Draft',
      type: 'Marketplace.Basic',
      customer: `${api.base}/api/customers/${provider}/`,
      url: `${api.base}/api/marketplace-provider-offerings/${draft.uuid}/`,
    });
    expect(draft.plans).toEqual([expect.objectContaining({ name: 'Default', unit: 'month', prices: {} })]);
    expect((await api.ok<Json>('owner', 'GET', `/api/customers/${provider}/`)).is_service_provider).toBe(
      true,
    );

    expect(
      (await api.call('customer-user', 'GET', `/api/marketplace-provider-offerings/${draft.uuid}/`)).status,
    ).toBe(404);
    expect(
      (await api.call('customer-user', 'GET', `/api/marketplace-public-offerings/${draft.uuid}/`)).status,
    ).toBe(404);

    const active = await api.ok<Offering>(
      'owner',
      'POST',
      `/api/marketplace-provider-offerings/${draft.uuid}/activate/`,
    );
    expect(active.state).toBe('Active');
    const listed = await api.ok<Offering[]>(
      'customer-user',
      'GET',
      '/api/marketplace-public-offerings/?type=Marketplace.Basic',
    );
    expect(listed.map((offering) => offering.uuid)).toContain(draft.uuid);
    // Any type name filters, as Waldur's loose filter: one with no offerings here lists none.
    expect(
      await api.ok<Offering[]>(
        'customer-user',
        'GET',
        '/api/marketplace-public-offerings/?type=Marketplace.Slurm',
      ),
    ).toEqual([]);
    expect(
      (await api.call<Json>('customer-user', 'GET', '/api/marketplace-public-offerings/?type=%00')).status,
    ).toBe(400);
    const again = await api.call<Json>(
      'owner',
      'POST',
      `/api/marketplace-provider-offerings/${draft.uuid}/activate/`,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Offering in state Active cannot be moved by "activate".');
  });

  it("answers every plan's url: the plans under the public offering are those of /api/marketplace-plans/", async () => {
    const offering = await createBasic('Plans under the offering');
    const plan = offering.plans[0];
    const planPath = `/api/marketplace-public-offerings/${offering.uuid}/plans/${plan.uuid}/`;
    expect(plan.url).toBe(`${api.base}${planPath}`);
    // A Draft offering is not in the catalogue: nor are its plans, for anyone (its provider included).
    expect((await api.call('owner', 'GET', planPath)).status).toBe(404);
    await api.ok('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);

    const viaUrl = await api.ok<Json>('customer-user', 'GET', plan.url);
    expect(viaUrl).toEqual(
      await api.ok<Json>('customer-user', 'GET', `/api/marketplace-plans/${plan.uuid}/`),
    );
    expect(viaUrl.url).toBe(plan.url);
    const listed = await api.call<Json[]>(
      'customer-user',
      'GET',
      `/api/marketplace-public-offerings/${offering.uuid}/plans/`,
    );
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-result-count')).toBe('1');
    expect(listed.body).toEqual([viaUrl]);

    // A plan of another offering is not found under this one.
    const other = await createBasic('Another offering');
    const foreign = `/api/marketplace-public-offerings/${offering.uuid}/plans/${other.plans[0].uuid}/`;
    expect((await api.call('customer-user', 'GET', foreign)).status).toBe(404);
    const bad = await api.call<Json>(
      'customer-user',
      'GET',
      `/api/marketplace-public-offerings/${offering.uuid}/plans/x/`,
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['plan_uuid']);
  });

  it('refuses an offering for an organisation the caller does not own, naming the field', async () => {
    const invisible = await api.call<Json>('customer-user', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'Not mine',
      type: 'Marketplace.Basic',
      customer: provider,
    });
    expect(invisible.status).toBe(400);
    expect(invisible.body).toEqual({ customer: ['Invalid hyperlink - Object does not exist.'] });
    // A Waldur type this marketplace cannot create (the OpenStack ones it can, processed by hand).
    const badType = await api.call<Json>('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'x',
      type: 'Marketplace.Slurm',
      customer: provider,
    });
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body)).toEqual(['type']);
  });

  it('lets the provider price its plan and anyone estimate a month of given limits', async () => {
    const vm = await api.ok<Offering>('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'vSphere VMs',
      type: 'VMware.VirtualMachine',
      customer: provider,
    });
    expect(vm.components).toEqual([
      { type: 'cpu', name: 'CPU', measured_unit: 'vCPU', billing_type: 'limit', factor: 1 },
      { type: 'ram', name: 'RAM', measured_unit: 'GB', billing_type: 'limit', factor: 1024 },
      { type: 'disk', name: 'Disk', measured_unit: 'GB', billing_type: 'limit', factor: 1024 },
    ]);
    const plan = vm.plans[0];
    expect(plan.url).toBe(`${api.base}/api/marketplace-public-offerings/${vm.uuid}/plans/${plan.uuid}/`);

    const priced = await api.ok<Json>('owner', 'POST', `/api/marketplace-plans/${plan.uuid}/update_prices/`, {
      prices: { cpu: 5, ram: '2.5', disk: '0.1' },
    });
    expect(priced.prices).toEqual({ cpu: '5.0000', ram: '2.5000', disk: '0.1000' });
    const unknown = await api.call<Json>(
      'owner',
      'POST',
      `/api/marketplace-plans/${plan.uuid}/update_prices/`,
      {
        prices: { gpu: 1 },
      },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ 'prices.gpu': ['Offering has no component "gpu".'] });
    const negative = await api.call<Json>(
      'owner',
      'POST',
      `/api/marketplace-plans/${plan.uuid}/update_prices/`,
      {
        prices: { cpu: -1 },
      },
    );
    expect(negative.status).toBe(400);
    expect(Object.keys(negative.body)).toEqual(['prices.cpu']);
    // A customer cannot see a Draft offering's plan at all.
    expect(
      (
        await api.call('customer-user', 'POST', `/api/marketplace-plans/${plan.uuid}/update_prices/`, {
          prices: { cpu: 0 },
        })
      ).status,
    ).toBe(404);

    const estimate = await api.ok<Json>('owner', 'POST', `/api/marketplace-plans/${plan.uuid}/estimate/`, {
      limits: { cpu: 2, ram: 4096, disk: 20_480 },
    });
    expect(estimate.monthly_cost).toBe('22.00');
  });

  it('announces every change of an offering on the stream with its public view', async () => {
    const offering = await createBasic('Announced');
    await api.ok('owner', 'PATCH', `/api/marketplace-provider-offerings/${offering.uuid}/`, {
      name: 'Renamed',
    });
    await api.ok('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);
    await api.ok('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/pause/`);
    const subject = nats.topology.subjects.offeringChanged;
    let events: Envelope<OfferingChanged>[] = [];
    for (let tries = 0; tries < 100; tries++) {
      events = (
        (await readEnvelopes(
          nats.jsm,
          nats.topology.streams.marketplace.name,
          subject,
        )) as Envelope<OfferingChanged>[]
      ).filter((event) => event.correlationId === offering.uuid);
      if (events.length === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(
      events.map((event) => [event.data.change, event.data.offering.state, event.data.offering.name]),
    ).toEqual([
      ['created', 'Draft', 'Announced'],
      ['updated', 'Draft', 'Renamed'],
      ['Active', 'Active', 'Renamed'],
      ['Paused', 'Paused', 'Renamed'],
    ]);
  });

  it('answers 503 naming the adapter when a vSphere offering is activated while the adapter is away', async () => {
    const vm = await api.ok<Offering>('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'vSphere, no adapter',
      type: 'VMware.VirtualMachine',
      customer: provider,
    });
    const answer = await api.call<Json>(
      'owner',
      'POST',
      `/api/marketplace-provider-offerings/${vm.uuid}/activate/`,
    );
    expect(answer.status).toBe(503);
    expect(answer.body.detail).toMatch(/vsphere-adapter/);
    expect(
      (await api.ok<Offering>('owner', 'GET', `/api/marketplace-provider-offerings/${vm.uuid}/`)).state,
    ).toBe('Draft');
  });
});
