import { randomBytes, randomUUID as randomUuid } from 'node:crypto';
import { VcsimLibrary } from '../../apps/vsphere-adapter/test/support/vcsim-library';
import { ApiSession, type Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { SseClient } from '../support/sse-client';
import { eventually } from '../support/virtual-machines';
import { readStream, type StoredEvent } from '../support/stream-census';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';
import { startVcsimWithFront, type VcsimWithFront } from '../support/vcsim-front';

jest.setTimeout(180_000);

type Integration = Json & {
  state: string;
  error_message: string;
  sync_state: string;
  last_sync_finished: string | null;
  counts: Record<string, number>;
};

// Issue 9's acceptance through the public API: a provider connects vCenter (vcsim behind the
// project's vCenter 8 front), synchronises, publishes; organisations see what is theirs.
describe('the vSphere offering through the gateway: credentials, synchronisation, inventory, activation', () => {
  const password = `pw-${randomBytes(12).toString('hex')}`;
  let sim: VcsimWithFront;
  let library: VcsimLibrary;
  let db: TestDatabase;
  let nats: TestNats;
  let apps: AppProcess[];
  let api: ApiSession;
  let provider: string;
  let tenant: string;
  let offering: Json & { uuid: string; plans: (Json & { uuid: string })[] };

  beforeAll(async () => {
    sim = await startVcsimWithFront({ username: 'svc@vsphere.local', password });
    library = await VcsimLibrary.open(sim);
    await library.publish('Ubuntu-24.04');
    db = await createTestDatabase('vsphereoffering');
    nats = await createTestNats('vsphereoffering');
    const port = await freePort();
    const env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    apps = [
      new AppProcess('order-service', env),
      new AppProcess('vsphere-adapter', {
        ...env,
        CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        VSPHERE_SYNC_SWEEP_MS: '500',
        OUTBOX_SWEEP_MS: '500',
      }),
      new AppProcess('gateway', { ...env, GATEWAY_PORT: String(port) }),
    ];
    await Promise.all([apps[0].start(), apps[1].start(), apps[2].start('gateway listening')]);
    api = new ApiSession(`http://127.0.0.1:${port}`, db.url);
    await api.bootstrapStaff('staff', env);
    await api.user('owner', 'staff');
    await api.user('member', 'staff');
    provider = (await api.ok('staff', 'POST', '/api/customers/', { name: 'vSphere Provider' }))
      .uuid as string;
    tenant = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Tenant' })).uuid as string;
    await api.ok('staff', 'POST', `/api/customers/${provider}/add_user/`, {
      user: api.users.owner,
      role: 'CUSTOMER.OWNER',
    });
    await api.ok('staff', 'POST', `/api/customers/${tenant}/add_user/`, {
      user: api.users.member,
      role: 'CUSTOMER.OWNER',
    });
    offering = await api.ok('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'vCenter VMs',
      type: 'VMware.VirtualMachine',
      customer: provider,
    });
  });

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.stop()));
    await library?.close();
    await sim?.stop();
    await nats?.close();
    await db?.drop();
  });

  const integrationPath = () => `/api/marketplace-provider-offerings/${offering.uuid}/integration/`;

  async function save(attributes: Json): Promise<Integration> {
    return api.ok<Integration>(
      'owner',
      'POST',
      `/api/marketplace-provider-offerings/${offering.uuid}/update_integration/`,
      {
        service_attributes: attributes,
      },
    );
  }

  /** Requests a synchronisation and waits until one that started after the request has finished. */
  async function synchronised(): Promise<Integration> {
    const asked = Date.now();
    await api.ok('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/sync/`);
    for (let tries = 0; tries < 300; tries++) {
      const integration = await api.ok<Integration>('owner', 'GET', integrationPath());
      const finished = Date.parse(integration.last_sync_finished ?? '') || 0;
      if (integration.sync_state === 'IDLE' && finished >= asked - 50) return integration;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no synchronisation finished');
  }

  async function names(who: string, collection: string): Promise<string[]> {
    const items = await api.ok<Json[]>(
      who,
      'GET',
      `/api/${collection}/?offering_uuid=${offering.uuid}&page_size=300`,
    );
    return items.map((item) => String(item.name)).sort();
  }

  it('stays ERRED while the credentials are saved one field at a time, and turns OK once they work', async () => {
    // verify_ssl is on by default: the CA comes with the address.
    expect((await save({ backend_url: sim.url, ca_pem: sim.caPem })).state).not.toBe('OK');
    expect((await synchronised()).state).toBe('ERRED');
    await save({ username: 'svc@vsphere.local' });
    await save({ password: 'not-the-password' });
    const wrong = await synchronised();
    expect(wrong.state).toBe('ERRED');
    expect(wrong.error_message).toMatch(/login|password|InvalidLogin|incorrect/i);
    await save({ password });
    await save({ default_cluster_label: 'DC0_C0' });
    await save({ verify_ssl: true, ca_pem: sim.caPem });
    const ok = await synchronised();
    expect(ok).toMatchObject({ state: 'OK', error_message: '', password_set: true });
    expect(ok).not.toHaveProperty('password');
    const held = await library.counts();
    expect(ok.counts).toMatchObject({ ...held, templates: 1 });
  });

  it("keeps a Draft offering's templates, inventory and limits to its provider and staff", async () => {
    expect(offering.state).toBe('Draft');
    for (const collection of ['vmware-templates', 'vmware-clusters', 'vmware-datastores', 'vmware-folders']) {
      expect(await names('member', collection)).toEqual([]);
      expect((await names('owner', collection)).length).toBeGreaterThan(0);
      expect((await names('staff', collection)).length).toBeGreaterThan(0);
    }
    // Nor without the offering filter, nor its limits (unseen answers as missing).
    expect(await api.ok<Json[]>('member', 'GET', '/api/vmware-templates/?page_size=300')).toEqual([]);
    const [draftTemplate] = await api.ok<Json[]>(
      'owner',
      'GET',
      `/api/vmware-templates/?offering_uuid=${offering.uuid}`,
    );
    expect(
      (await api.call('member', 'GET', `/api/vmware-templates/${String(draftTemplate.uuid)}/`)).status,
    ).toBe(404);
    expect(
      (await api.call('owner', 'GET', `/api/vmware-templates/${String(draftTemplate.uuid)}/`)).status,
    ).toBe(200);
    // Its service settings (the offering's scope) likewise.
    const settings = `/api/service-settings/${offering.uuid}/`;
    expect((await api.call('member', 'GET', settings)).status).toBe(404);
    expect((await api.call('owner', 'GET', settings)).status).toBe(200);
    const limits = `/api/vmware-limits/${offering.uuid}/`;
    expect((await api.call('member', 'GET', limits)).status).toBe(404);
    expect((await api.call('owner', 'GET', limits)).status).toBe(200);
  });

  it('is activated while OK and then listed publicly with its plan and prices', async () => {
    const plan = offering.plans[0].uuid;
    await api.ok('owner', 'POST', `/api/marketplace-plans/${plan}/update_prices/`, {
      prices: { cpu: 5, ram: 2, disk: 0.1 },
    });
    expect(
      (await api.ok<Json>('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`))
        .state,
    ).toBe('Active');
    const listed = await api.ok<Json[]>(
      'member',
      'GET',
      '/api/marketplace-public-offerings/?type=VMware.VirtualMachine',
    );
    const mine = listed.find((candidate) => candidate.uuid === offering.uuid) as Json & { plans: Json[] };
    expect(mine.plans).toEqual([
      expect.objectContaining({ name: 'Default', prices: { cpu: '5.0000', ram: '2.0000', disk: '0.1000' } }),
    ]);
    // The adapter learns the new state from OfferingChanged: the inventory opens to every organisation.
    await eventually(
      () => names('member', 'vmware-templates'),
      (seen) => seen.length > 0,
      10_000,
      "the Active offering's templates shown to another organisation",
    );
  });

  it("answers templates as Waldur's VmwareTemplate: a url that resolves, guest_os_name, settings_uuid filter", async () => {
    const [template] = await api.ok<(Json & { url: string; uuid: string })[]>(
      'member',
      'GET',
      `/api/vmware-templates/?offering_uuid=${offering.uuid}`,
    );
    expect(template.url).toBe(`${api.base}/api/vmware-templates/${template.uuid}/`);
    expect(template.guest_os_name).toEqual(expect.any(String));
    expect(template.guest_os_name).not.toBe('');
    expect(await api.ok<Json>('member', 'GET', template.url)).toEqual(template);
    expect((await api.call('member', 'GET', `/api/vmware-templates/${randomUuid()}/`)).status).toBe(404);

    // The offering's service settings are its vCenter integration: scope_uuid is what settings_uuid takes.
    const publicView = await api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-public-offerings/${offering.uuid}/`,
    );
    expect(publicView.scope_uuid).toBe(offering.uuid);
    expect(publicView.scope).toBe(`${api.base}/api/service-settings/${offering.uuid}/`);
    expect(await api.ok<Json>('member', 'GET', String(publicView.scope))).toEqual({
      url: publicView.scope,
      uuid: publicView.scope_uuid,
      name: 'vCenter VMs',
      type: 'VMware',
      customer_uuid: provider,
      customer_name: 'vSphere Provider',
      customer: `${api.base}/api/customers/${provider}/`,
    });
    const bySettings = await api.ok<Json[]>(
      'member',
      'GET',
      `/api/vmware-templates/?settings_uuid=${String(publicView.scope_uuid)}&page_size=300`,
    );
    expect(bySettings.map((item) => item.uuid)).toContain(template.uuid);
    expect(bySettings.every((item) => item.offering_uuid === offering.uuid)).toBe(true);
    expect(
      await api.ok<Json[]>('member', 'GET', `/api/vmware-templates/?settings_uuid=${randomUuid()}`),
    ).toEqual([]);
    const bad = await api.call<Json>('member', 'GET', '/api/vmware-templates/?settings_uuid=x');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['settings_uuid']);
  });

  it('lists a template published in vCenter after a synchronisation, and forgets it once deleted', async () => {
    const item = await library.publish('WindowsServer-2022');
    await synchronised();
    const templates = await api.ok<Json[]>(
      'member',
      'GET',
      `/api/vmware-templates/?offering_uuid=${offering.uuid}`,
    );
    expect(templates.map((template) => [template.name, template.os, template.os_version]).sort()).toEqual([
      ['Ubuntu-24.04', 'Ubuntu', '24.04'],
      ['WindowsServer-2022', 'WindowsServer', '2022'],
    ]);
    await library.deleteItem(item);
    await synchronised();
    expect(await names('member', 'vmware-templates')).toEqual(['Ubuntu-24.04']);
  });

  it('shows an organisation only what staff assigned to it, or the default cluster; only staff assign', async () => {
    expect(await names('member', 'vmware-clusters')).toEqual(['DC0_C0']);
    const all = await api.ok<Json[]>(
      'staff',
      'GET',
      `/api/vmware-networks/?offering_uuid=${offering.uuid}&page_size=300`,
    );
    const network = all.find((candidate) => candidate.name === 'DC0_DVPG0')!;
    const refused = await api.call('member', 'POST', '/api/vmware-customer-networks/', {
      customer: tenant,
      network: network.uuid,
    });
    expect(refused.status).toBe(403);
    const nowhere = await api.call('staff', 'POST', '/api/vmware-customer-networks/', {
      customer: '6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11',
      network: network.uuid,
    });
    expect(nowhere).toMatchObject({
      status: 400,
      body: { customer: ['Invalid hyperlink - Object does not exist.'] },
    });
    expect(await names('member', 'vmware-networks')).toEqual([]);
    await api.ok('staff', 'POST', '/api/vmware-customer-networks/', {
      customer: tenant,
      network: network.uuid,
    });
    expect(await names('member', 'vmware-networks')).toEqual(['DC0_DVPG0']);
    await api.ok('staff', 'POST', '/api/vmware-customer-networks/remove/', {
      customer: tenant,
      network: network.uuid,
    });
    expect(await names('member', 'vmware-networks')).toEqual([]);
  });

  it("streams the offering's sync over SSE to its provider's owner and staff, not to another organisation", async () => {
    const query = `/api/events?offering_uuid=${offering.uuid}`;
    const owner = await SseClient.open(`${api.base}${query}`, { token: api.tokens.owner });
    const staff = await SseClient.open(`${api.base}${query}`, { token: api.tokens.staff });
    const other = await SseClient.open(`${api.base}${query}`, { token: api.tokens.member });
    const integrationTypes = ['SyncStarted', 'SyncFinished', 'IntegrationStateChanged'];
    const seen = (client: SseClient) =>
      client.messages.filter((m) => integrationTypes.includes(m.event)).map((m) => m.event);
    try {
      const ok = await synchronised();
      for (const client of [owner, staff]) {
        await client.waitFor((c) => seen(c).includes('SyncFinished'), 10_000, 'SyncFinished');
        expect(seen(client)).toEqual(['SyncStarted', 'SyncFinished']);
        expect(client.data('SyncStarted')[0]).toMatchObject({
          offeringUuid: offering.uuid,
          providerUuid: provider,
          integration: { sync_state: 'SYNCING' },
        });
        expect(client.data('SyncFinished')[0]).toMatchObject({
          offeringUuid: offering.uuid,
          providerUuid: provider,
          outcome: 'OK',
          counts: ok.counts,
        });
      }

      // A state change: a wrong password makes the next sync ERRED, the right one OK again.
      await save({ password: 'not-the-password' });
      expect((await synchronised()).state).toBe('ERRED');
      await save({ password });
      expect((await synchronised()).state).toBe('OK');
      for (const client of [owner, staff]) {
        await client.waitFor(
          (c) => c.data('IntegrationStateChanged').length >= 2,
          10_000,
          'two IntegrationStateChanged',
        );
        expect(
          client
            .data<{ previousState: string; providerUuid: string; state: string }>('IntegrationStateChanged')
            .map((e) => [e.previousState, e.state, e.providerUuid]),
        ).toEqual([
          ['OK', 'ERRED', provider],
          ['ERRED', 'OK', provider],
        ]);
        expect(JSON.stringify(client.messages)).not.toContain(password);
      }
      // Fanned out to every stream at once: give the other one time to receive what it would.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(other.status).toBe(200);
      expect(seen(other)).toEqual([]);
    } finally {
      owner.close();
      staff.close();
      other.close();
    }
  });

  it('never shows the password: not in an answer, an event on the streams, nor a log line', async () => {
    const streams = nats.topology.streams;
    const stored: StoredEvent[] = [];
    for (const stream of [streams.marketplace, streams.vsphere])
      stored.push(...(await readStream(nats.nc, stream.name)));
    expect(stored.some((event) => event.envelope.type === 'IntegrationStateChanged')).toBe(true);
    expect(api.transcript.length).toBeGreaterThan(20);
    expect(api.transcript.filter((answer) => answer.includes(password))).toEqual([]);
    expect(stored.filter((event) => JSON.stringify(event).includes(password))).toEqual([]);
    for (const app of apps)
      expect(app.lines.filter((line) => JSON.stringify(line).includes(password))).toEqual([]);
  });
});
