import { randomUUID } from 'node:crypto';
import type { Page, TemplateView } from '@app/contracts';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import type { AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import { announceOffering } from './support/offering-states';
import { ask, dataOf, ownerOf, saveAndSettle, staff, type RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(60_000);

describe('basic mode (VSPHERE_BASIC_MODE=true)', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  const customer = randomUUID();

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_basic',
      namespace: 'adapterbasic',
      vcsim: { args: ['-cluster', '2'] },
      env: { VSPHERE_BASIC_MODE: 'true' },
    }));
    // Public, as the order service announces an Active offering: its inventory is for every organisation.
    await announceOffering(nats, db.url, { uuid: offering, customerUuid: randomUUID(), state: 'Active' });
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it('offers only templates with exactly one network adapter, and says why the others are skipped', async () => {
    const one = await library.publish('Ubuntu-22.04', { nics: 1 });
    const two = await library.publish('Ubuntu-20.04', { nics: 2 });
    const none = await library.publish('Alpine-3.19', { nics: 0 });
    const view = await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
    });
    expect(view).toMatchObject({ state: 'OK', basic_mode: true, counts: { templates: 1 } });
    expect(view.skipped).toEqual([
      {
        kind: 'templates',
        backend_id: none,
        name: 'Alpine-3.19',
        reason: 'In basic mode only templates with exactly one network adapter are offered; it has 0.',
      },
      {
        kind: 'templates',
        backend_id: two,
        name: 'Ubuntu-20.04',
        reason: 'In basic mode only templates with exactly one network adapter are offered; it has 2.',
      },
    ]);
    const listed = dataOf(
      await ask<Page<TemplateView>>(client, 'vsphere.templates.list', {
        caller: ownerOf(),
        params: {},
        query: { offering_uuid: offering },
        body: {},
      }),
    );
    expect(listed.items.map((t) => t.backend_id)).toEqual([one]);
  });

  it("assigns exactly one cluster and one network per organisation, with Waldur's messages for a second", async () => {
    const list = async (kind: string) =>
      dataOf(
        await ask<Page<{ uuid: string; name: string }>>(client, `vsphere.${kind}.list`, {
          caller: staff(),
          params: {},
          query: { offering_uuid: offering },
          body: {},
        }),
      ).items;
    const add = (kind: string, body: Record<string, string>) =>
      ask(client, `vsphere.assignments.${kind}.add`, {
        caller: staff(),
        params: {},
        query: {},
        body: { customer, ...body },
      });
    const [c0, c1] = await list('clusters');
    const [n0, n1] = await list('networks');
    expect((await add('clusters', { cluster: c0.uuid })).status).toBe('ok');
    expect(await add('clusters', { cluster: c1.uuid })).toEqual({
      status: 'error',
      code: 400,
      fields: { cluster: ['There are multiple clusters assigned to the current customer.'] },
    });
    expect((await add('networks', { network: n0.uuid })).status).toBe('ok');
    expect(await add('networks', { network: n1.uuid })).toEqual({
      status: 'error',
      code: 400,
      fields: { network: ['There are multiple networks assigned to the current customer.'] },
    });
    // Networks for adapters of existing VMs are not limited.
    expect((await add('existing-vm-networks', { network: n0.uuid })).status).toBe('ok');
    expect((await add('existing-vm-networks', { network: n1.uuid })).status).toBe('ok');
    // Another organisation gets its own one.
    expect(
      (
        await ask(client, 'vsphere.assignments.clusters.add', {
          caller: staff(),
          params: {},
          query: {},
          body: { customer: randomUUID(), cluster: c1.uuid },
        })
      ).status,
    ).toBe('ok');
  });
});
