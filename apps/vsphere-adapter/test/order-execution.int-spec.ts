import { randomUUID } from 'node:crypto';
import { destroyVm, powerOffVm, readVirtualMachine, readVmFolders } from '@app/vim25';
import type { ChangeOrderType, Envelope, OrderSubmitted } from '@app/contracts';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { credentialKey, startAdapter, type AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import {
  answersFor,
  assign,
  consumerSettled,
  envelopeOf,
  inventoryOf,
  orderSubmitted,
  publishOrder,
  republish,
  validate,
  vmsOfOrder,
  waitForAnswer,
  type Listed,
} from './support/order-fixture';
import { dataOf, saveAndSettle, syncAndSettle, type RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(120_000);

describe('VM orders carried out in vcsim: deploy, resize, delete, each answered once', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  const customer = randomUUID();
  let inv: Awaited<ReturnType<typeof inventoryOf>>;
  let templateItem: string;
  let network: Listed;
  let folder: Listed;
  const env = () => ({ CREDENTIALS_KEYS: key, VSPHERE_DEPLOY_TIMEOUT_MS: '60000' });
  const key = credentialKey();

  /** Validates a Create order as the order service does, and builds its OrderSubmitted. */
  const createOrder = async (name: string, itemUuid?: string): Promise<OrderSubmitted> => {
    const validated = dataOf(
      await validate(client, {
        offering_uuid: offering,
        customer_uuid: customer,
        attributes: {
          name,
          template: itemUuid ?? inv.templates.get('Ubuntu-22.04')!.uuid,
          networks: [{ url: `/api/vmware-networks/${network.uuid}/` }],
          folder: folder.uuid,
        },
        limits: { cpu: 2, ram: 2048 },
      }),
    );
    return orderSubmitted({ offeringUuid: offering, customerUuid: customer, ...validated });
  };

  const submit = async (order: OrderSubmitted) => {
    await publishOrder(nats, envelopeOf(order));
    return waitForAnswer(nats, order.orderUuid);
  };

  const changeOrder = (type: ChangeOrderType, created: OrderSubmitted, backendId: string, limits = {}) =>
    orderSubmitted({
      offeringUuid: offering,
      customerUuid: customer,
      orderType: type,
      marketplaceResourceUuid: created.marketplaceResourceUuid,
      backendId,
      limits,
    });

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_order_execution',
      namespace: 'adapterordexec',
      vcsim: { args: ['-folder', '1'] },
      env: env(),
    }));
    templateItem = await library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
      default_cluster_label: 'DC0_C0',
    });
    inv = await inventoryOf(client, offering);
    network = inv.networks.get('DC0_DVPG0')!;
    await assign(client, 'networks', customer, network.uuid);
    // A folder other than the datacenter's VM folder (the default): the deploy must go there.
    const dcFolders = new Set((await readVmFolders(library.connection)).map((f) => f.ref.value));
    folder = [...inv.folders.values()].find((f) => f.name !== 'vm' && dcFolders.has(f.backend_id))!;
    await assign(client, 'folders', customer, folder.uuid);
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  let created: OrderSubmitted;
  let vmUuid: string;
  let moref: string;

  it('deploys a Create order: the VM runs in vcsim with 2 vCPU, 2048 MiB, the network and folder; OrderDone names it', async () => {
    created = await createOrder('web-1');
    const answer = await submit(created);
    expect(answer.type).toBe('OrderDone');
    const [vm] = await vmsOfOrder(library.connection, created.orderUuid);
    expect(vm).toMatchObject({
      name: 'web-1',
      template: false,
      powerState: 'poweredOn',
      numCPU: 2,
      memoryMB: 2048,
      parent: { value: folder.backend_id },
    });
    const nics = vm.devices.filter((d) => d.kind === 'nic');
    expect(nics).toHaveLength(1);
    expect(nics[0]).toMatchObject({ backing: { kind: 'distributed', portgroupKey: network.backend_id } });
    const disk = vm.devices.reduce(
      (sum, d) => sum + (d.kind === 'disk' ? Math.floor(d.capacityInKB / 1024) : 0),
      0,
    );
    expect(answer.data).toEqual({
      orderUuid: created.orderUuid,
      marketplaceResourceUuid: created.marketplaceResourceUuid,
      backendId: vm.instanceUuid,
      backendRef: vm.ref.value,
      limits: { cpu: 2, ram: 2048, disk },
    });
    vmUuid = vm.instanceUuid!;
    moref = vm.ref.value;
    const [row]: unknown[] = await adapter.runtime.dataSource.query(
      `SELECT "moref", "cpu", "ram", "runtime_state", "order_uuid",
              (SELECT count(*)::int FROM "vsphere"."vm_network_adapters" a WHERE a."vm_uuid" = v."uuid" AND a."network_uuid" = $2) AS "on_network"
       FROM "vsphere"."virtual_machines" v WHERE "backend_uuid" = $1`,
      [vmUuid, network.uuid],
    );
    expect(row).toEqual({
      moref,
      cpu: 2,
      ram: 2048,
      runtime_state: 'POWERED_ON',
      order_uuid: created.orderUuid,
      on_network: 1,
    });
  });

  it('answers a redelivered order once and makes no second VM (same envelope, and a new event id)', async () => {
    const envelope = envelopeOf(created);
    await republish(nats, { ...envelope, id: envelope.id }); // the same event again
    await republish(nats, envelope); // the same order under a new event id
    await consumerSettled(nats);
    expect(await vmsOfOrder(library.connection, created.orderUuid)).toHaveLength(1);
    const answers = await answersFor(nats, created.orderUuid);
    expect(answers.done).toHaveLength(1);
    expect(answers.erred).toHaveLength(0);
  });

  it('takes an OrderSubmitted as the version before the rename published it (resourceUuid), and answers under both names', async () => {
    // An offering without an integration: the adapter answers at once, without vCenter.
    const { marketplaceResourceUuid, ...order } = orderSubmitted({ offeringUuid: randomUUID() });
    const current = envelopeOf({ ...order, marketplaceResourceUuid });
    // Written by hand with the legacy name only, as the version before the rename wrote it.
    await publishOrder(nats, {
      ...current,
      data: { ...order, resourceUuid: marketplaceResourceUuid },
    } as unknown as Envelope<OrderSubmitted>);
    const answer = await waitForAnswer(nats, order.orderUuid);
    expect(answer).toMatchObject({
      type: 'OrderErred',
      data: { orderUuid: order.orderUuid, marketplaceResourceUuid },
    });
    // Under the legacy name too, for an order service of the version before still running.
    const { erred } = await answersFor(nats, order.orderUuid);
    expect(erred[0].data).toHaveProperty('resourceUuid', marketplaceResourceUuid);
  });

  it('refuses to resize or delete a running VM at validation, with 409 and the reason', async () => {
    for (const type of ['Update', 'Terminate'] as const) {
      expect(
        await validate(client, {
          offering_uuid: offering,
          customer_uuid: customer,
          type,
          limits: type === 'Update' ? { cpu: 4 } : {},
          vm_uuid: vmUuid,
        }),
      ).toEqual({
        status: 'error',
        code: 409,
        detail: `The virtual machine must be POWERED_OFF to be ${type === 'Update' ? 'resized' : 'deleted'}; it is POWERED_ON.`,
      });
    }
  });

  it('ends a Terminate of a running VM as erred with the reason, and the VM stays', async () => {
    const terminate = changeOrder('Terminate', created, vmUuid);
    const answer = await submit(terminate);
    expect(answer).toEqual({
      type: 'OrderErred',
      data: {
        orderUuid: terminate.orderUuid,
        marketplaceResourceUuid: created.marketplaceResourceUuid,
        errorMessage: 'The virtual machine must be POWERED_OFF to be deleted; it is POWERED_ON.',
      },
    });
    expect(
      await readVirtualMachine(library.connection, { type: 'VirtualMachine', value: moref }),
    ).toBeDefined();
  });

  it('resizes a powered-off VM to 4 vCPU: vcsim shows 4, OrderDone carries the new limits', async () => {
    await powerOffVm(library.connection, { type: 'VirtualMachine', value: moref });
    const validated = await validate(client, {
      offering_uuid: offering,
      customer_uuid: customer,
      type: 'Update',
      limits: { cpu: 4 },
      vm_uuid: vmUuid,
    });
    expect(validated).toMatchObject({ status: 'ok', data: { limits: { cpu: 4, ram: 2048 } } });
    expect(
      await validate(client, {
        offering_uuid: offering,
        customer_uuid: customer,
        type: 'Update',
        limits: { cpu: 4, disk: 999_999 },
        vm_uuid: vmUuid,
      }),
    ).toEqual({ status: 'error', code: 400, fields: { disk: ['Disk size cannot be changed'] } });
    const update = changeOrder('Update', created, vmUuid, dataOf(validated).limits);
    const answer = await submit(update);
    expect(answer).toMatchObject({
      type: 'OrderDone',
      data: { backendId: vmUuid, limits: { cpu: 4, ram: 2048 } },
    });
    expect(
      await readVirtualMachine(library.connection, { type: 'VirtualMachine', value: moref }),
    ).toMatchObject({
      numCPU: 4,
      memoryMB: 2048,
      powerState: 'poweredOff',
    });
  });

  it('deletes a powered-off VM on Terminate: gone from vcsim and from the records', async () => {
    const terminate = changeOrder('Terminate', created, vmUuid);
    expect(await submit(terminate)).toMatchObject({
      type: 'OrderDone',
      data: { orderUuid: terminate.orderUuid },
    });
    expect(
      await readVirtualMachine(library.connection, { type: 'VirtualMachine', value: moref }),
    ).toBeUndefined();
    expect(
      await adapter.runtime.dataSource.query(
        `SELECT 1 FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
        [vmUuid],
      ),
    ).toEqual([]);
  });

  it("ends a second VM of the same name in the same folder as erred with vCenter's message, and makes no VM", async () => {
    expect((await submit(await createOrder('web-twin'))).type).toBe('OrderDone');
    const twin = await createOrder('web-twin');
    expect(await submit(twin)).toEqual({
      type: 'OrderErred',
      data: {
        orderUuid: twin.orderUuid,
        marketplaceResourceUuid: twin.marketplaceResourceUuid,
        errorMessage: "The name 'web-twin' already exists.",
        faultType: 'ALREADY_EXISTS',
      },
    });
    expect(await vmsOfOrder(library.connection, twin.orderUuid)).toHaveLength(0);
  });

  it('carries out a retried order that erred (a new OrderSubmitted for it) once the cause is gone: one VM, and a redelivery adds nothing', async () => {
    const first = await createOrder('web-retry');
    expect((await submit(first)).type).toBe('OrderDone');
    const twin = await createOrder('web-retry');
    expect((await submit(twin)).type).toBe('OrderErred');
    // The name is free again; the order service retries the erred order (erred → executing), which
    // publishes OrderSubmitted anew: a new event for the same order.
    const [taken] = await vmsOfOrder(library.connection, first.orderUuid);
    await powerOffVm(library.connection, taken.ref);
    await destroyVm(library.connection, taken.ref);
    const retry = envelopeOf(twin);
    await publishOrder(nats, retry);
    await consumerSettled(nats);
    await republish(nats, retry);
    await consumerSettled(nats);
    const answers = await answersFor(nats, twin.orderUuid);
    expect([answers.erred.length, answers.done.length]).toEqual([1, 1]);
    expect(await vmsOfOrder(library.connection, twin.orderUuid)).toHaveLength(1);
  });

  it("ends a deploy vCenter refuses after validation (template deleted meanwhile) as erred with vCenter's message", async () => {
    const order = await createOrder('web-gone');
    await library.deleteItem(templateItem);
    const answer = await submit(order);
    expect(answer).toEqual({
      type: 'OrderErred',
      data: {
        orderUuid: order.orderUuid,
        marketplaceResourceUuid: order.marketplaceResourceUuid,
        errorMessage: `Library item with identifier ${templateItem} does not exist.`,
        faultType: 'NOT_FOUND',
      },
    });
    expect(await vmsOfOrder(library.connection, order.orderUuid)).toHaveLength(0);
  });

  it('finishes an order whose adapter stopped mid-deploy with the VM the first deploy made: one VM, one answer', async () => {
    templateItem = await library.publish('Debian-12', { nics: 1, memoryMB: 1024 });
    await syncAndSettle(client, offering);
    inv = await inventoryOf(client, offering);
    const order = await createOrder('web-stopped', inv.templates.get('Debian-12')!.uuid);
    sim.front.delayDeployAnswers(20_000); // vCenter makes the VM, then the clone "takes" 20 s more
    await publishOrder(nats, envelopeOf(order));
    await until(async () => (await vmsOfOrder(library.connection, order.orderUuid)).length === 1);
    await adapter.close(); // mid-deploy: the handler is abandoned and its message given back
    sim.front.delayDeployAnswers(0);
    expect(await answersFor(nats, order.orderUuid)).toEqual({ done: [], erred: [] });
    adapter = await startAdapter({ databaseUrl: db.url, namespace: nats.topology.namespace, env: env() });
    const answer = await waitForAnswer(nats, order.orderUuid);
    expect(answer.type).toBe('OrderDone');
    const vms = await vmsOfOrder(library.connection, order.orderUuid);
    expect(vms).toHaveLength(1);
    expect(vms[0]).toMatchObject({ powerState: 'poweredOn', numCPU: 2, memoryMB: 2048 });
    expect(answer.data).toMatchObject({ backendId: vms[0].instanceUuid, backendRef: vms[0].ref.value });
    await consumerSettled(nats);
    expect((await answersFor(nats, order.orderUuid)).done).toHaveLength(1);
  });

  it('finishes an order whose deploy outlived VSPHERE_DEPLOY_TIMEOUT_MS with the VM vCenter made meanwhile', async () => {
    await adapter.close();
    adapter = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { ...env(), VSPHERE_DEPLOY_TIMEOUT_MS: '1500' },
    });
    const order = await createOrder('web-slow', inv.templates.get('Debian-12')!.uuid);
    sim.front.delayDeployAnswers(3_000);
    try {
      const answer = await submit(order);
      expect(answer.type).toBe('OrderDone');
    } finally {
      sim.front.delayDeployAnswers(0);
    }
    expect(
      adapter.lines.some(
        (l) => String(l.msg).includes('handler failed') || String(l.msg).includes('retried'),
      ),
    ).toBe(true);
    const vms = await vmsOfOrder(library.connection, order.orderUuid);
    expect(vms).toHaveLength(1);
    expect(vms[0].powerState).toBe('poweredOn');
    await consumerSettled(nats);
    expect((await answersFor(nats, order.orderUuid)).done).toHaveLength(1);
  });

  it('keeps the message alive through a deploy longer than the ack wait: delivered once, answered once', async () => {
    await adapter.close();
    adapter = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { ...env(), CONSUMER_ACK_WAIT_MS: '1000' },
    });
    const order = await createOrder('web-long', inv.templates.get('Debian-12')!.uuid);
    sim.front.delayDeployAnswers(3_500);
    try {
      expect((await submit(order)).type).toBe('OrderDone');
    } finally {
      sim.front.delayDeployAnswers(0);
    }
    await consumerSettled(nats);
    // Without the in-progress acks JetStream would have delivered it again after 1 s.
    const handled = adapter.lines.filter(
      (l) => l.orderUuid === order.orderUuid && typeof l.deliveryCount === 'number',
    );
    expect(handled).toEqual([
      expect.objectContaining({ msg: 'OrderSubmitted answered with OrderDone', deliveryCount: 1 }),
    ]);
    expect(await vmsOfOrder(library.connection, order.orderUuid)).toHaveLength(1);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
