import { randomUUID } from 'node:crypto';
import type { RequestReply, VsphereOrderValidation } from '@app/contracts';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { VSPHERE_MESSAGES } from '../src/machines/domain/hardware-rules';
import { VM_NAME_TOO_LONG } from '../src/machines/domain/vm-name-rules';
import type { AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import { assign, inventoryOf, validate, type Listed } from './support/order-fixture';
import { saveAndSettle, type RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(90_000);

const fieldsOf = (reply: RequestReply<VsphereOrderValidation>) => {
  if (reply.status !== 'error' || reply.code !== 400)
    throw new Error(`expected a 400, got ${JSON.stringify(reply)}`);
  return reply.fields ?? {};
};

const url = (collection: string, uuid: string) => `https://marketplace.example/api/${collection}/${uuid}/`;

describe('vsphere-internal.orders.validate: Create orders as Waldur validates them', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  const bare = randomUUID(); // a second offering on the same vCenter, without a default cluster
  const customer = randomUUID();
  const other = randomUUID();
  let inv: Awaited<ReturnType<typeof inventoryOf>>;
  let bareInv: Awaited<ReturnType<typeof inventoryOf>>;
  let template: Listed & { cores: number; cores_per_socket: number; ram: number; disk: number };

  const byName = (map: Map<string, Listed>, name: string): Listed => {
    const found = map.get(name);
    if (found === undefined) throw new Error(`no ${name} in ${[...map.keys()].join(', ')}`);
    return found;
  };
  const create = (attributes: Record<string, unknown>, limits: Record<string, number> = {}, off = offering) =>
    validate(client, {
      offering_uuid: off,
      customer_uuid: customer,
      attributes: { name: 'vm-1', template: template.uuid, ...attributes },
      limits,
    });

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_order_validation',
      namespace: 'adapterordval',
      vcsim: { args: ['-cluster', '2', '-ds', '2', '-folder', '1'] },
    }));
    await library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 2048 });
    const credentials = {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
    };
    await saveAndSettle(client, offering, {
      ...credentials,
      default_cluster_label: 'DC0_C0',
      max_cpu: 8,
      max_cores_per_socket: 4,
      max_ram: 8192,
      max_disk: 204800,
      max_disk_total: 204800,
    });
    await saveAndSettle(client, bare, credentials);
    inv = await inventoryOf(client, offering);
    bareInv = await inventoryOf(client, bare);
    template = byName(inv.templates, 'Ubuntu-22.04') as typeof template;
    // The customer may use "VM Network" and the second datastore; another organisation has DC0_C1.
    await assign(client, 'networks', customer, byName(inv.networks, 'VM Network').uuid);
    await assign(client, 'datastores', customer, byName(inv.datastores, 'LocalDS_1').uuid);
    await assign(client, 'clusters', other, byName(inv.clusters, 'DC0_C1').uuid);
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it("answers the order normalised: links as uuids, the template's hardware where unset, the default cluster", async () => {
    const network = byName(inv.networks, 'VM Network');
    const reply = await create({
      template: url('vmware-templates', template.uuid),
      networks: [{ url: url('vmware-networks', network.uuid) }],
      datastore: `/api/vmware-datastores/${byName(inv.datastores, 'LocalDS_1').uuid}/`,
      description: 'web',
    });
    expect(reply).toEqual({
      status: 'ok',
      data: {
        attributes: {
          name: 'vm-1',
          description: 'web',
          template: template.uuid,
          cluster: byName(inv.clusters, 'DC0_C0').uuid,
          cores_per_socket: template.cores_per_socket,
          datastore: byName(inv.datastores, 'LocalDS_1').uuid,
          networks: [network.uuid],
        },
        limits: { cpu: template.cores, ram: template.ram, disk: template.disk },
      },
    });
  });

  it('takes the limits asked when they are within the maximums', async () => {
    const reply = await create({ cores_per_socket: 2 }, { cpu: 4, ram: 4096 });
    expect(reply).toMatchObject({
      status: 'ok',
      data: { attributes: { cores_per_socket: 2 }, limits: { cpu: 4, ram: 4096 } },
    });
  });

  it('refuses an order without a template, with a link to nothing, or to another offering', async () => {
    expect(fieldsOf(await create({ template: undefined }))).toEqual({
      template: ['This field is required.'],
    });
    expect(fieldsOf(await create({ template: '/api/vmware-clusters/x/' }))).toEqual({
      template: ['Invalid hyperlink - No URL match.'],
    });
    expect(fieldsOf(await create({ template: randomUUID() }))).toEqual({
      template: ['Invalid hyperlink - Object does not exist.'],
    });
    const foreign = byName(bareInv.templates, 'Ubuntu-22.04');
    expect(fieldsOf(await create({ template: foreign.uuid }))).toEqual({
      template: ['This template is not available for this service.'],
    });
  });

  it('refuses a guest OS with a template, and an order without a name', async () => {
    expect(fieldsOf(await create({ guest_os: 'UBUNTU_64' }))).toEqual({
      guest_os: ['It is not possible to customize guest OS when template is used.'],
    });
    expect(fieldsOf(await create({ name: '' }))).toEqual({ name: ['This field is required.'] });
  });

  it("refuses a name longer than vCenter's 80 characters (each %, \\ and / counting 3), and takes 80", async () => {
    expect(fieldsOf(await create({ name: 'a'.repeat(81) }))).toEqual({ name: [VM_NAME_TOO_LONG] });
    expect(fieldsOf(await create({ name: `${'a'.repeat(78)}/` }))).toEqual({ name: [VM_NAME_TOO_LONG] });
    expect(await create({ name: 'a'.repeat(80) })).toMatchObject({ status: 'ok' });
  });

  it("refuses limits beyond the offering's maximums with Waldur's messages", async () => {
    expect(fieldsOf(await create({}, { cpu: 10 }))).toEqual({
      cpu: ['Requested amount of CPU exceeds offering limit.'],
    });
    expect(fieldsOf(await create({ cores_per_socket: 8 }, { cpu: 8 }))).toEqual({
      cores_per_socket: ['Requested amount of cores per socket exceeds offering limit.'],
    });
    expect(fieldsOf(await create({ cores_per_socket: 2 }, { cpu: 3 }))).toEqual({
      cpu: ['Number of CPU cores should be multiple of cores per socket.'],
    });
    expect(fieldsOf(await create({}, { ram: 512 }))).toEqual({
      ram: ['Requested amount of RAM is too small.'],
    });
    expect(fieldsOf(await create({}, { ram: 16384 }))).toEqual({
      ram: ['Requested amount of RAM exceeds offering limit.'],
    });
    expect(fieldsOf(await create({}, { disk: 409600 }))).toEqual({
      disk: ['Requested amount of disk exceeds offering limit.'],
    });
  });

  it("refuses limits beyond vSphere 8's own maximums, naming the field, besides the offering's", async () => {
    expect(fieldsOf(await create({}, { cpu: 769 }))).toEqual({
      cpu: [VSPHERE_MESSAGES.cpu, 'Requested amount of CPU exceeds offering limit.'],
    });
    expect(fieldsOf(await create({}, { ram: 24_560 * 1024 + 1 }))).toEqual({
      ram: [VSPHERE_MESSAGES.ram, 'Requested amount of RAM exceeds offering limit.'],
    });
  });

  it("refuses a cluster the customer may not use, or another offering's", async () => {
    expect(fieldsOf(await create({ cluster: byName(inv.clusters, 'DC0_C1').uuid }))).toEqual({
      cluster: ['This cluster is not available for this customer.'],
    });
    expect(fieldsOf(await create({ cluster: byName(bareInv.clusters, 'DC0_C0').uuid }))).toEqual({
      cluster: ['This cluster is not available for this service.'],
    });
  });

  it('refuses an order without a cluster when the offering has no default cluster', async () => {
    const foreign = byName(bareInv.templates, 'Ubuntu-22.04');
    expect(fieldsOf(await create({ template: foreign.uuid }, {}, bare))).toEqual({
      cluster: ['Default cluster is not defined for this service.'],
    });
  });

  it('refuses a network, datastore or folder the customer may not use', async () => {
    expect(fieldsOf(await create({ networks: [byName(inv.networks, 'DC0_DVPG0').uuid] }))).toEqual({
      networks: ['This network is not available for this customer.'],
    });
    expect(fieldsOf(await create({ networks: 'VM Network' }))).toEqual({
      networks: ['Expected a list of items but got type "string".'],
    });
    expect(fieldsOf(await create({ datastore: byName(inv.datastores, 'LocalDS_0').uuid }))).toEqual({
      datastore: ['This datastore is not available for this customer.'],
    });
    // Folders: without assignments the customer has the first one vCenter lists, and no other.
    const folders = [...inv.folders.values()];
    expect(folders.length).toBeGreaterThan(1);
    const results = await Promise.all(folders.map((f) => create({ folder: f.uuid })));
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'error').map(fieldsOf)[0]).toEqual({
      folder: ['This folder is not available for this customer.'],
    });
  });

  it('names every problem of an order at once, each under its field', async () => {
    expect(
      fieldsOf(
        await create(
          { cluster: byName(inv.clusters, 'DC0_C1').uuid, networks: [randomUUID()] },
          { ram: 100 },
        ),
      ),
    ).toEqual({
      cluster: ['This cluster is not available for this customer.'],
      ram: ['Requested amount of RAM is too small.'],
      networks: ['Invalid hyperlink - Object does not exist.'],
    });
  });

  it('refuses an offering the adapter has no integration for', async () => {
    expect(fieldsOf(await create({}, {}, randomUUID()))).toEqual({
      offering: ['This offering is not connected to a vCenter: its provider has not saved the integration.'],
    });
  });
});

describe('vsphere-internal.orders.validate in basic mode: placement derived per customer', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  let inv: Awaited<ReturnType<typeof inventoryOf>>;
  let templateUuid: string;

  const create = (customer: string, attributes: Record<string, unknown> = {}) =>
    validate(client, {
      offering_uuid: offering,
      customer_uuid: customer,
      attributes: { name: 'vm-b', template: templateUuid, ...attributes },
    });
  const obj = (map: Map<string, Listed>, name: string) => map.get(name)!.uuid;

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_order_validation_basic',
      namespace: 'adapterordvalb',
      vcsim: { args: ['-cluster', '2', '-ds', '2', '-folder', '1'] },
      env: { VSPHERE_BASIC_MODE: 'true' },
    }));
    await library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 2048 });
    await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
    });
    inv = await inventoryOf(client, offering);
    templateUuid = inv.templates.get('Ubuntu-22.04')!.uuid;
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it("derives the customer's cluster, folder, roomiest datastore and network, ignoring what the order names", async () => {
    const customer = randomUUID();
    await assign(client, 'clusters', customer, obj(inv.clusters, 'DC0_C1'));
    const [folder] = [...inv.folders.values()];
    await assign(client, 'folders', customer, folder.uuid);
    await assign(client, 'datastores', customer, obj(inv.datastores, 'LocalDS_0'));
    await assign(client, 'networks', customer, obj(inv.networks, 'VM Network'));
    const reply = await create(customer, { cluster: obj(inv.clusters, 'DC0_C0'), networks: [] });
    expect(reply).toMatchObject({
      status: 'ok',
      data: {
        attributes: {
          cluster: obj(inv.clusters, 'DC0_C1'),
          folder: folder.uuid,
          datastore: obj(inv.datastores, 'LocalDS_0'),
          networks: [obj(inv.networks, 'VM Network')],
        },
      },
    });
  });

  it('says what the customer lacks: no folder, datastore or network assigned, and no default cluster', async () => {
    expect(fieldsOf(await create(randomUUID()))).toEqual({
      cluster: ['Default cluster is not defined for this service.'],
      datastore: ['There is no datastore assigned to the current customer.'],
      folder: ['There is no folder assigned to the current customer.'],
      networks: ['There is no network assigned to the current customer.'],
    });
  });

  it('refuses a datastore without room for the template', async () => {
    const customer = randomUUID();
    await assign(client, 'datastores', customer, obj(inv.datastores, 'LocalDS_1'));
    // vcsim's datastores report their free space; shrink ours below the template's disk.
    await adapter.runtime.dataSource.query(
      'UPDATE "vsphere"."datastores" SET "free_space" = 0 WHERE "uuid" = $1',
      [obj(inv.datastores, 'LocalDS_1')],
    );
    expect(fieldsOf(await create(customer)).datastore).toEqual([
      'There is no datastore with enough free space available for current customer.',
    ]);
  });

  it('refuses a customer holding several clusters, folders or networks (assigned before basic mode was on)', async () => {
    const customer = randomUUID();
    const insert = (table: string, objectUuid: string) =>
      adapter.runtime.dataSource.query(
        `INSERT INTO "vsphere"."${table}" ("uuid", "customer_uuid", "object_uuid") VALUES ($1, $2, $3)`,
        [randomUUID(), customer, objectUuid],
      );
    for (const cluster of inv.clusters.values()) await insert('customer_clusters', cluster.uuid);
    for (const folder of inv.folders.values()) await insert('customer_folders', folder.uuid);
    for (const network of inv.networks.values()) await insert('customer_networks', network.uuid);
    await insert('customer_datastores', obj(inv.datastores, 'LocalDS_0'));
    expect(fieldsOf(await create(customer))).toEqual({
      cluster: ['There are multiple clusters assigned to the current customer.'],
      folder: ['There are multiple folders assigned to the current customer.'],
      networks: ['There are multiple networks assigned to the current customer.'],
    });
  });
});
