import { randomUUID } from 'node:crypto';
import { addDisk, readVirtualMachine, removeDisk, type MoRef, type VmInfo } from '@app/vim25';
import type { DiskView, PortView, RequestReply, VmOperationView } from '@app/contracts';
import { OperationRefused } from '../src/machines/operations/vm-operation-executor';
import { PlacementRepository } from '../src/machines/repositories/placement.repository';
import { VirtualMachineRepository } from '../src/machines/repositories/virtual-machine.repository';
import type { VmDevicesService } from '../src/machines/services/vm-devices.service';
import { UnitOfWork } from '../src/repositories/unit-of-work';
import { VcenterAccessService } from '../src/integration/services/vcenter-access.service';
import { VM_PROVISIONER, type VmProvisioner } from '../src/vcenter/ports/vm-provisioner.port';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { devicesService, runOperation } from './support/device-operations';
import {
  assign,
  envelopeOf,
  inventoryOf,
  orderSubmitted,
  publishOrder,
  validate,
  vmsOfOrder,
  waitForAnswer,
  type Listed,
} from './support/order-fixture';
import { ask, dataOf, member, saveAndSettle, staff } from './support/requests';

jest.setTimeout(120_000);

describe('disks and network adapters of a VM in vcsim: requests, rows kept by key, executors', () => {
  let suite: AdapterSuite;
  let service: VmDevicesService;
  const offering = randomUUID();
  const customer = randomUUID();
  const owner = member(customer);
  let inv: Awaited<ReturnType<typeof inventoryOf>>;
  let forNewVms: Listed;
  let forExisting: Listed;
  let vmUuid: string;
  let vmRow: string;
  let vm: MoRef;

  const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
    suite.adapter.runtime.dataSource.query(query, params);
  const live = async (): Promise<VmInfo> => (await readVirtualMachine(suite.library.connection, vm))!;
  const liveDisk = async (key: number) =>
    (await live()).devices.find((d) => d.kind === 'disk' && d.key === key) as
      Extract<VmInfo['devices'][number], { kind: 'disk' }> | undefined;
  const diskRows = () =>
    sql<{ uuid: string; device_key: number | null; size: string; name: string; state: string }>(
      `SELECT "uuid", "device_key", "size", "name", "state" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1
       ORDER BY "device_key" NULLS LAST`,
      [vmRow],
    );
  const operationOf = (reply: RequestReply<VmOperationView | null>) => dataOf(reply)!;

  /** Reads the VM back and records it, as a resize's read-back does. */
  const refresh = async () => {
    const app = suite.adapter.app;
    const access = await app.get(VcenterAccessService, { strict: false }).forOffering(offering);
    const options = { signal: AbortSignal.timeout(30_000), timeoutMs: 30_000 };
    const remote = await app
      .get<VmProvisioner>(VM_PROVISIONER, { strict: false })
      .read(await access!.connection(), vm.value, options);
    const networks = await app.get(PlacementRepository, { strict: false }).networksByBackendId(offering);
    await app
      .get(UnitOfWork, { strict: false })
      .run((tx) =>
        app.get(VirtualMachineRepository, { strict: false }).refresh(tx, vmRow, remote!, networks),
      );
  };

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_vm_devices',
      namespace: 'adaptervmdevices',
      env: { VSPHERE_DEPLOY_TIMEOUT_MS: '60000' },
    });
    await suite.library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    await saveAndSettle(suite.client, offering, {
      backend_url: suite.sim.url,
      username: suite.sim.username,
      password: suite.sim.password,
      default_cluster_label: 'DC0_C0',
      max_disk: 4096,
      max_disk_total: 8192,
    });
    inv = await inventoryOf(suite.client, offering);
    forNewVms = inv.networks.get('DC0_DVPG0')!;
    forExisting = inv.networks.get('VM Network')!;
    await assign(suite.client, 'networks', customer, forNewVms.uuid);
    dataOf(
      await ask(suite.client, 'vsphere.assignments.existing-vm-networks.add', {
        caller: staff(),
        params: {},
        query: {},
        body: { customer, network: forExisting.uuid },
      }),
    );
    const validated = dataOf(
      await validate(suite.client, {
        offering_uuid: offering,
        customer_uuid: customer,
        attributes: {
          name: 'devices-1',
          template: inv.templates.get('Ubuntu-22.04')!.uuid,
          networks: [{ url: `/api/vmware-networks/${forNewVms.uuid}/` }],
        },
        limits: { cpu: 1, ram: 1024 },
      }),
    );
    const order = orderSubmitted({ offeringUuid: offering, customerUuid: customer, ...validated });
    await publishOrder(suite.nats, envelopeOf(order));
    expect((await waitForAnswer(suite.nats, order.orderUuid)).type).toBe('OrderDone');
    const [info] = await vmsOfOrder(suite.library.connection, order.orderUuid);
    vm = info.ref;
    vmUuid = info.instanceUuid!;
    [{ uuid: vmRow }] = await sql<{ uuid: string }>(
      `SELECT "uuid" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    service = devicesService(suite.adapter);
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  describe('rows kept by device key', () => {
    it('keeps every row (uuid, name, created) through a read-back, and records a disk added in vCenter as a new OK row', async () => {
      const before = await diskRows();
      expect(before.length).toBeGreaterThan(0);
      await refresh();
      expect(await diskRows()).toEqual(before);
      const added = await addDisk(suite.library.connection, vm, { capacityInKB: 1024 * 1024 });
      await refresh();
      const after = await diskRows();
      expect(after.filter((r) => r.device_key !== added.key)).toEqual(before);
      expect(after.find((r) => r.device_key === added.key)).toMatchObject({
        size: '1024',
        name: added.label,
        state: 'OK',
      });
      await removeDisk(suite.library.connection, vm, added.key);
      await refresh();
      expect(await diskRows()).toEqual(before);
    });
  });

  describe('create_disk', () => {
    it('answers 404 for a VM the caller does not see', async () => {
      expect(await service.createDisk(member(randomUUID()), vmUuid, 2048)).toEqual({
        status: 'error',
        code: 404,
        detail: 'Not found.',
      });
    });

    it.each([
      [1023, 'Requested amount of disk is too small.'],
      [4097, 'Requested amount of disk exceeds offering limit.'],
    ])('refuses %i MiB on size: %s', async (size, message) => {
      expect(await service.createDisk(owner, vmUuid, size)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: [message] },
      });
    });

    let disk: DiskView;
    it('answers 201 with a CREATING "New disk" and queues create_disk; the executor adds it in vcsim and the row gets its key', async () => {
      disk = dataOf(await service.createDisk(owner, vmUuid, 2048));
      expect(disk).toMatchObject({
        name: 'New disk',
        size: 2048,
        state: 'CREATING',
        backend_id: '',
        vm_uuid: vmUuid,
      });
      const [op] = await sql<{ uuid: string; kind: string; params: unknown; state: string }>(
        `SELECT "uuid", "kind", "params", "state" FROM "vsphere"."vm_operations" WHERE "disk_uuid" = $1`,
        [disk.uuid],
      );
      expect(op).toMatchObject({ kind: 'create_disk', params: { size: 2048 }, state: 'pending' });
      const { result } = await runOperation(suite.adapter, op.uuid);
      expect(result?.createdDeviceKey).toEqual(expect.any(Number));
      expect((await liveDisk(result!.createdDeviceKey!))?.capacityInKB).toBe(2048 * 1024);
      expect(dataOf(await service.getDisk(owner, disk.uuid))).toMatchObject({
        uuid: disk.uuid,
        name: 'New disk',
        state: 'OK',
        size: 2048,
        backend_id: String(result!.createdDeviceKey),
      });
    });

    it('lists the disks of the VM for its customer, and none for another', async () => {
      const page = dataOf(await service.listDisks(owner, { page: 1, page_size: 50, vm_uuid: vmUuid }));
      expect(page.items.map((d) => d.uuid)).toContain(disk.uuid);
      expect(page.count).toBe(page.items.length);
      expect(dataOf(await service.listDisks(member(randomUUID()), { page: 1, page_size: 50 })).count).toBe(0);
    });

    it('extends it: 400 when not larger, 202 with the operation, then vcsim and the row show the new size', async () => {
      expect(await service.extendDisk(owner, disk.uuid, 2048)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: ['Disk size should be greater than 2048'] },
      });
      const op = operationOf(await service.extendDisk(owner, disk.uuid, 4096));
      expect(op).toMatchObject({
        operation: 'extend_disk',
        state: 'pending',
        disk_uuid: disk.uuid,
        vm_uuid: vmUuid,
      });
      expect(dataOf(await service.getDisk(owner, disk.uuid)).state).toBe('UPDATING');
      expect((await runOperation(suite.adapter, op.uuid)).error).toBeUndefined();
      const view = dataOf(await service.getDisk(owner, disk.uuid));
      expect(view).toMatchObject({ size: 4096, state: 'OK' });
      expect((await liveDisk(Number(view.backend_id)))?.capacityInKB).toBe(4096 * 1024);
    });

    it('refuses a disk the remaining max_disk_total cannot hold', async () => {
      const [{ total }] = await sql<{ total: string }>(
        `SELECT sum("size") AS "total" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1`,
        [vmRow],
      );
      const left = 8192 - Number(total);
      expect(left).toBeLessThan(4096);
      expect(await service.createDisk(owner, vmUuid, left + 1)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: ['Storage quota has been reached.'] },
      });
    });

    it('refuses at execution to extend a disk removed in vCenter meanwhile (OperationRefused); the read-back drops the row', async () => {
      const extra = dataOf(await service.createDisk(owner, vmUuid, 1024));
      const [create] = await sql<{ uuid: string }>(
        `SELECT "uuid" FROM "vsphere"."vm_operations" WHERE "disk_uuid" = $1`,
        [extra.uuid],
      );
      const key = (await runOperation(suite.adapter, create.uuid)).result!.createdDeviceKey!;
      const op = operationOf(await service.extendDisk(owner, extra.uuid, 2048));
      await removeDisk(suite.library.connection, vm, key);
      const { error } = await runOperation(suite.adapter, op.uuid);
      expect(error).toBeInstanceOf(OperationRefused);
      expect((error as Error).message).toBe('The disk no longer exists in vCenter.');
      await refresh();
      expect(await service.getDisk(owner, extra.uuid)).toMatchObject({ status: 'error', code: 404 });
    });

    it('deletes it: 202, DELETING, then gone from vcsim and from the rows', async () => {
      const key = Number(dataOf(await service.getDisk(owner, disk.uuid)).backend_id);
      const op = operationOf(await service.deleteDevice(owner, 'disk', disk.uuid));
      expect(op).toMatchObject({ operation: 'delete_disk', disk_uuid: disk.uuid });
      expect(dataOf(await service.getDisk(owner, disk.uuid)).state).toBe('DELETING');
      expect((await runOperation(suite.adapter, op.uuid)).error).toBeUndefined();
      expect(await liveDisk(key)).toBeUndefined();
      expect(await service.getDisk(owner, disk.uuid)).toMatchObject({ status: 'error', code: 404 });
    });

    it('destroys a disk vCenter never made (ERRED, no key) at once (null: 204); a CREATING one is refused', async () => {
      const never = dataOf(await service.createDisk(owner, vmUuid, 1024));
      expect(await service.deleteDevice(owner, 'disk', never.uuid)).toEqual({
        status: 'error',
        code: 409,
        detail: 'Valid states for operation: Erred.',
      });
      // As the runner leaves it when vCenter refused the create.
      await sql(
        `UPDATE "vsphere"."vm_disks" SET "state" = 'ERRED', "error_message" = 'refused' WHERE "uuid" = $1`,
        [never.uuid],
      );
      await sql(`UPDATE "vsphere"."vm_operations" SET "state" = 'erred' WHERE "disk_uuid" = $1`, [
        never.uuid,
      ]);
      expect(await service.deleteDevice(owner, 'disk', never.uuid)).toEqual({ status: 'ok', data: null });
      expect(await sql(`SELECT 1 FROM "vsphere"."vm_disks" WHERE "uuid" = $1`, [never.uuid])).toEqual([]);
    });
  });

  describe('create_port', () => {
    it.each([
      ['/api/vmware-clusters/00000000-0000-4000-8000-000000000001/', 'Invalid hyperlink - No URL match.'],
      [randomUUID(), 'Invalid hyperlink - Object does not exist.'],
    ])('refuses network %s on network', async (network, message) => {
      expect(await service.createPort(owner, vmUuid, network)).toEqual({
        status: 'error',
        code: 400,
        fields: { network: [message] },
      });
    });

    it('refuses a network assigned for new VMs only (not for existing VMs)', async () => {
      expect(await service.createPort(owner, vmUuid, `/api/vmware-networks/${forNewVms.uuid}/`)).toEqual({
        status: 'error',
        code: 400,
        fields: { network: ['This network is not available for this customer.'] },
      });
    });

    let port: PortView;
    it('answers 201 with a CREATING "New virtual Adapter"; the executor adds it on the network in vcsim', async () => {
      port = dataOf(
        await service.createPort(owner, vmUuid, `https://x.example/api/vmware-networks/${forExisting.uuid}/`),
      );
      expect(port).toMatchObject({
        name: 'New virtual Adapter',
        state: 'CREATING',
        backend_id: '',
        network_uuid: forExisting.uuid,
        network_name: 'VM Network',
        vm_uuid: vmUuid,
      });
      const [op] = await sql<{ uuid: string }>(
        `SELECT "uuid" FROM "vsphere"."vm_operations" WHERE "port_uuid" = $1`,
        [port.uuid],
      );
      const key = (await runOperation(suite.adapter, op.uuid)).result!.createdDeviceKey!;
      const nic = (await live()).devices.find((d) => d.kind === 'nic' && d.key === key);
      expect(nic).toMatchObject({
        backing: { kind: 'standard', network: { value: forExisting.backend_id } },
      });
      const view = dataOf(await service.getPort(owner, port.uuid));
      expect(view).toMatchObject({ state: 'OK', backend_id: String(key), network_uuid: forExisting.uuid });
      expect(view.mac_address).toMatch(/^[0-9a-f:]{17}$/);
    });

    it('refuses an eleventh adapter', async () => {
      const [{ n }] = await sql<{ n: number }>(
        `SELECT count(*)::int AS "n" FROM "vsphere"."vm_network_adapters" WHERE "vm_uuid" = $1`,
        [vmRow],
      );
      const made: string[] = [];
      for (let i = n; i < 10; i++)
        made.push(dataOf(await service.createPort(owner, vmUuid, forExisting.uuid)).uuid);
      expect(await service.createPort(owner, vmUuid, forExisting.uuid)).toEqual({
        status: 'error',
        code: 400,
        fields: { non_field_errors: ['Virtual machine can have at most 10 network adapters.'] },
      });
      await sql(`DELETE FROM "vsphere"."vm_operations" WHERE "port_uuid" = ANY($1::uuid[])`, [made]);
      await sql(`DELETE FROM "vsphere"."vm_network_adapters" WHERE "uuid" = ANY($1::uuid[])`, [made]);
    });

    it('deletes the adapter: 202, then gone from vcsim and the rows', async () => {
      const key = Number(
        port.backend_id === '' ? dataOf(await service.getPort(owner, port.uuid)).backend_id : port.backend_id,
      );
      const op = operationOf(await service.deleteDevice(owner, 'port', port.uuid));
      expect(op).toMatchObject({ operation: 'delete_port', port_uuid: port.uuid });
      expect((await runOperation(suite.adapter, op.uuid)).error).toBeUndefined();
      expect((await live()).devices.some((d) => d.key === key)).toBe(false);
      expect(await service.getPort(owner, port.uuid)).toMatchObject({ status: 'error', code: 404 });
    });
  });
});
