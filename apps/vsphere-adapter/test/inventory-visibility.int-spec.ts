import { randomUUID } from 'node:crypto';
import type { AssignmentView, LimitsView, Page, Caller } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createTestNats, type TestNats } from '../../../test/support/test-nats';
import { openRequestClient } from '../../../test/support/nats-requests';
import { startVcsimWithFront, type VcsimWithFront } from '../../../test/support/vcsim-front';
import { callerWith } from './support/callers';
import { announceOffering } from './support/offering-states';
import { credentialKey, startAdapter, type AdapterInstance } from './support/adapter-harness';
import { ask, dataOf, ownerOf, saveAndSettle, staff, type RequestClient } from './support/requests';

jest.setTimeout(60_000);

interface Named {
  uuid: string;
  name: string;
}

describe('what each organisation sees of the inventory, and staff assignments', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  const offering = randomUUID();
  const [customerA, customerB] = [randomUUID(), randomUUID()];

  const list = async (
    kind: 'clusters' | 'networks' | 'datastores' | 'folders',
    caller: Caller,
    query: Record<string, unknown> = {},
  ): Promise<Page<Named>> =>
    dataOf(
      await ask<Page<Named>>(client, `vsphere.${kind}.list`, {
        caller,
        params: {},
        query: { offering_uuid: offering, ...query },
        body: {},
      }),
    );
  const names = async (...args: Parameters<typeof list>) => (await list(...args)).items.map((o) => o.name);
  const assignment = (kind: string, op: 'add' | 'remove', caller: Caller, body: Record<string, string>) =>
    ask<AssignmentView | null>(client, `vsphere.assignments.${kind}.${op}`, {
      caller,
      params: {},
      query: {},
      body,
    });

  beforeAll(async () => {
    sim = await startVcsimWithFront({ args: ['-cluster', '2', '-ds', '2', '-pg', '2'] });
    db = await createTestDatabase('adapter_visibility');
    nats = await createTestNats('adaptervis');
    adapter = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: credentialKey() },
    });
    client = await openRequestClient(nats.topology.namespace);
    // Public, as the order service announces an Active offering: its inventory is for every organisation.
    await announceOffering(nats, db.url, { uuid: offering, customerUuid: randomUUID(), state: 'Active' });
    const view = await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
      max_cpu: 16,
      max_ram: 65536,
    });
    expect(view.state).toBe('OK');
    expect(
      (await saveAndSettle(client, offering, { default_cluster_label: 'DC0_C1' })).default_cluster_label,
    ).toBe('DC0_C1');
  });

  afterAll(async () => {
    await adapter?.close();
    await client?.close();
    await sim?.stop();
    await nats?.close();
    await db?.drop();
  });

  it("shows an organisation without assignments the seed's defaults; staff see everything", async () => {
    const all = {
      clusters: await list('clusters', staff()),
      datastores: await list('datastores', staff()),
      folders: await list('folders', staff()),
      networks: await list('networks', staff()),
    };
    expect(all.clusters.items.map((c) => c.name).sort()).toEqual(['DC0_C0', 'DC0_C1']);
    expect(all.datastores.count).toBe(2);
    expect(all.networks.count).toBeGreaterThanOrEqual(3);
    const a = ownerOf(customerA);
    expect(await names('clusters', a)).toEqual(['DC0_C1']); // the default cluster label
    expect(await names('datastores', a)).toEqual([all.datastores.items[0].name]); // the first vCenter lists
    expect(await names('folders', a)).toEqual([all.folders.items[0].name]);
    expect(await names('networks', a)).toEqual([]); // the template's network only
    expect(await names('clusters', ownerOf())).toEqual([]); // belongs to no organisation
  });

  it('lets only staff assign, and names an unknown object', async () => {
    const cluster = (await list('clusters', staff())).items[0];
    expect(
      await assignment('clusters', 'add', ownerOf(customerA), { customer: customerA, cluster: cluster.uuid }),
    ).toEqual({
      status: 'error',
      code: 403,
      detail: 'You do not have permission to perform this action.',
    });
    expect(
      await ask(client, 'vsphere.assignments.clusters.list', {
        caller: ownerOf(customerA),
        params: {},
        query: {},
        body: {},
      }),
    ).toMatchObject({ status: 'error', code: 403 });
    expect(
      await assignment('clusters', 'add', staff(), { customer: customerA, cluster: randomUUID() }),
    ).toEqual({
      status: 'error',
      code: 400,
      fields: { cluster: ['Invalid hyperlink - Object does not exist.'] },
    });
    expect(await assignment('datastores', 'add', staff(), { customer: customerA })).toEqual({
      status: 'error',
      code: 400,
      fields: { 'body.datastore': ['This field is required.'] }, // the gateway checks the body first
    });
  });

  it('shows an organisation what staff assigned to it, and the defaults again once unassigned', async () => {
    const byName = async (kind: 'clusters' | 'networks' | 'datastores' | 'folders', name: string) => {
      const found = (await list(kind, staff())).items.find((o) => o.name === name);
      if (found === undefined) throw new Error(`no ${kind} named ${name}`);
      return found.uuid;
    };
    const datastores = (await list('datastores', staff())).items;
    const c0 = await byName('clusters', 'DC0_C0');
    const pg1 = await byName('networks', 'DC0_DVPG1');
    const vmNetwork = await byName('networks', 'VM Network');
    const secondDatastore = datastores[1];
    const url = (collection: string, uuid: string) => `https://portal.example.org/api/${collection}/${uuid}/`;

    const added = dataOf(
      await assignment('clusters', 'add', staff(), {
        customer: url('customers', customerA),
        cluster: url('vmware-clusters', c0),
      }),
    );
    expect(added).toMatchObject({
      kind: 'clusters',
      customer_uuid: customerA,
      object_uuid: c0,
      object_name: 'DC0_C0',
    });
    dataOf(await assignment('networks', 'add', staff(), { customer: customerA, network: pg1 }));
    dataOf(
      await assignment('existing-vm-networks', 'add', staff(), { customer: customerA, network: vmNetwork }),
    );
    dataOf(
      await assignment('datastores', 'add', staff(), {
        customer: customerA,
        datastore: secondDatastore.uuid,
      }),
    );
    expect(await assignment('clusters', 'add', staff(), { customer: customerA, cluster: c0 })).toEqual({
      status: 'error',
      code: 400,
      fields: { non_field_errors: ['The fields customer, cluster must make a unique set.'] },
    });

    const a = ownerOf(customerA);
    expect(await names('clusters', a)).toEqual(['DC0_C0']);
    expect(await names('networks', a)).toEqual(['DC0_DVPG1']);
    expect(await names('networks', a, { for_existing_vms: 'true' })).toEqual(['VM Network']);
    expect(await names('datastores', a)).toEqual([secondDatastore.name]);
    // B has none: the defaults. A member of both sees both views; a filter narrows to one of them.
    expect(await names('clusters', ownerOf(customerB))).toEqual(['DC0_C1']);
    expect((await names('clusters', ownerOf(customerA, customerB))).sort()).toEqual(['DC0_C0', 'DC0_C1']);
    expect(await names('clusters', ownerOf(customerA, customerB), { customer_uuid: customerB })).toEqual([
      'DC0_C1',
    ]);
    expect(await names('clusters', ownerOf(customerA), { customer_uuid: customerB })).toEqual([]);
    expect(await names('clusters', staff(), { customer_uuid: customerA })).toEqual(['DC0_C0']);

    const assigned = dataOf(
      await ask<Page<AssignmentView>>(client, 'vsphere.assignments.clusters.list', {
        caller: staff(),
        params: {},
        query: { customer_uuid: customerA },
        body: {},
      }),
    );
    expect(assigned).toMatchObject({ count: 1, items: [{ object_name: 'DC0_C0' }] });

    expect(await assignment('clusters', 'remove', staff(), { customer: customerA, cluster: c0 })).toEqual({
      status: 'ok',
      data: null,
    });
    expect(await names('clusters', a)).toEqual(['DC0_C1']);
    expect(
      await assignment('clusters', 'remove', staff(), { customer: customerA, cluster: c0 }),
    ).toMatchObject({
      status: 'error',
      code: 404,
    });
  });

  it('keeps assignments across synchronisations', async () => {
    const before = await names('networks', ownerOf(customerA));
    const since = (await saveAndSettle(client, offering, { max_disk: 102400 })).last_sync_success;
    expect(since).not.toBeNull();
    expect(await names('networks', ownerOf(customerA))).toEqual(before);
  });

  it('pages lists and answers the limits to anyone', async () => {
    const page = await list('networks', staff(), { page: 2, page_size: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(
      dataOf(
        await ask<LimitsView>(client, 'vsphere.limits.get', {
          caller: ownerOf(),
          params: { offering_uuid: offering },
          query: {},
          body: {},
        }),
      ),
    ).toEqual({
      max_cpu: 16,
      max_cores_per_socket: null,
      max_ram: 65536,
      max_disk: 102400,
      max_disk_total: null,
      // The snapshot limits' defaults (migration 1764480000130).
      max_snapshots: 3,
      snapshot_max_age_hours: 72,
      memory_snapshots: true,
    });
    expect(
      await ask(client, 'vsphere.limits.get', {
        caller: ownerOf(),
        params: { offering_uuid: randomUUID() },
        query: {},
        body: {},
      }),
    ).toMatchObject({ status: 'error', code: 404 });
    expect(
      await ask(client, 'vsphere.clusters.list', {
        caller: { user_uuid: 'me' },
        params: {},
        query: {},
        body: {},
      }),
    ).toMatchObject({ status: 'error', code: 400 });
  });

  // Last: it moves the offering back to Draft.
  it("keeps a Draft offering's inventory and limits to its provider's owners and staff", async () => {
    const providerCustomer = randomUUID();
    await announceOffering(nats, db.url, { uuid: offering, customerUuid: providerCustomer, state: 'Draft' });
    const other = ownerOf(customerA);
    const providerOwner = ownerOf(providerCustomer);
    const templates = (caller: Caller) =>
      ask<Page<Named>>(client, 'vsphere.templates.list', {
        caller,
        params: {},
        query: { offering_uuid: offering },
        body: {},
      });
    for (const kind of ['clusters', 'datastores', 'folders'] as const) {
      expect(await list(kind, other)).toEqual({ items: [], count: 0 });
      expect((await list(kind, providerOwner)).count).toBeGreaterThan(0);
      expect((await list(kind, staff())).count).toBeGreaterThan(0);
    }
    expect(dataOf(await templates(other)).count).toBe(0);
    // A member of the provider who does not own it is another organisation here.
    expect(
      dataOf(await templates(callerWith({ projects: [[randomUUID(), providerCustomer, 'PROJECT.ADMIN']] })))
        .count,
    ).toBe(0);
    const limits = (caller: Caller) =>
      ask<LimitsView>(client, 'vsphere.limits.get', {
        caller,
        params: { offering_uuid: offering },
        query: {},
        body: {},
      });
    expect(await limits(other)).toEqual({ status: 'error', code: 404, detail: 'Not found.' });
    expect(dataOf(await limits(providerOwner))).toMatchObject({ max_cpu: 16 });
    expect(dataOf(await limits(staff()))).toMatchObject({ max_cpu: 16 });
  });
});
