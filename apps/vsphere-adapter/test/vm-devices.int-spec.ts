import { randomUUID } from 'node:crypto';
import {
  addDisk,
  addNic,
  DeviceResolutionError,
  readNetworks,
  readVirtualMachine,
  removeDisk,
  removeNic,
  type MoRef,
  type VmInfo,
} from '@app/vim25';
import type { DiskView, PortView, VirtualMachineView } from '@app/contracts';
import { DEVICE_MESSAGES } from '../src/machines/domain/device-rules';
import { VmDeviceReconciler } from '../src/machines/repositories/vm-device-reconciler';
import { UnitOfWork } from '@app/messaging';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import {
  answered,
  deviceRequests,
  eventually,
  operationEnded,
  operationOfDevice,
} from './support/device-requests';
import { assignForExistingVms, connectSuiteVcenter, orderVm } from './support/device-suite';
import type { Listed } from './support/order-fixture';
import { ask, ownerOf, staff } from './support/requests';

jest.setTimeout(120_000);

type LiveDisk = Extract<VmInfo['devices'][number], { kind: 'disk' }>;

describe('disks and network adapters of a VM in vcsim: requests, the queued operations, rows kept by key', () => {
  let suite: AdapterSuite;
  const offering = randomUUID();
  const customer = randomUUID();
  let forNewVms: Listed;
  let forExisting: Listed;
  let vmUuid: string;
  let vmRow: string;
  let vm: MoRef;
  let owner: ReturnType<typeof deviceRequests>;
  let stranger: ReturnType<typeof deviceRequests>;

  const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
    suite.adapter.runtime.dataSource.query(query, params);
  const ended = (uuid: string) => operationEnded(suite.adapter.runtime.dataSource, uuid);
  const live = async (): Promise<VmInfo> => (await readVirtualMachine(suite.library.connection, vm))!;
  const liveDisk = async (key: number) =>
    (await live()).devices.find((d): d is LiveDisk => d.kind === 'disk' && d.key === key);
  const diskRows = () =>
    sql<{ uuid: string; device_key: number | null; size: string; name: string; state: string }>(
      `SELECT "uuid", "device_key", "size", "name", "state" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1
       ORDER BY "created", "uuid"`,
      [vmRow],
    );
  /** A pull through the queue: vCenter's VM read back and recorded. */
  const pull = async () => {
    const op = answered(
      await ask<{ uuid: string }>(suite.client, 'vsphere.vm.pull', {
        caller: staff(),
        params: { uuid: vmUuid },
        query: {},
        body: {},
      }),
    );
    expect(await ended(op.uuid)).toMatchObject({ state: 'done' });
  };
  /** A disk created through the request and its operation, as it is once that ended. */
  const createdDisk = async (size: number): Promise<DiskView> => {
    const disk = answered(await owner.createDisk(size));
    expect(await ended(await operationOfDevice(suite.adapter.runtime.dataSource, disk.uuid))).toMatchObject({
      state: 'done',
    });
    return answered(await owner.disk(disk.uuid));
  };

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_vm_devices',
      namespace: 'adaptervmdevices',
      env: {
        VSPHERE_DEPLOY_TIMEOUT_MS: '60000',
        VSPHERE_OPERATION_POLL_MS: '500',
        // Devices added in vCenter "behind the adapter's back" must stay unknown until a pull asks:
        // a live subscription would record them first, and the refusal at execution would become one
        // at request time.
        VSPHERE_VM_WATCH: 'false',
      },
    });
    await suite.library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const inv = await connectSuiteVcenter(suite, offering, { max_disk: 4096, max_disk_total: 8192 });
    forNewVms = inv.networks.get('DC0_DVPG0')!;
    forExisting = inv.networks.get('VM Network')!;
    await assignForExistingVms(suite, customer, forExisting);
    ({
      vmUuid,
      ref: vm,
      rowUuid: vmRow,
    } = await orderVm(suite, {
      offering,
      customer,
      name: 'devices-1',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: forNewVms,
    }));
    owner = deviceRequests(suite.client, ownerOf(customer), vmUuid);
    stranger = deviceRequests(suite.client, ownerOf(randomUUID()), vmUuid);
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  it('keeps every row (uuid, name, created) through read-backs, and records a disk added in vCenter as an OK row named by its label', async () => {
    const before = await diskRows();
    expect(before.length).toBeGreaterThan(0);
    await pull();
    expect(await diskRows()).toEqual(before);
    const added = await addDisk(suite.library.connection, vm, { capacityInKB: 1024 * 1024 });
    await pull();
    const after = await diskRows();
    expect(after.filter((r) => r.device_key !== added.key)).toEqual(before);
    expect(after.find((r) => r.device_key === added.key)).toMatchObject({
      size: '1024',
      name: added.label,
      state: 'OK',
    });
    await removeDisk(suite.library.connection, vm, added.key);
    await pull();
    expect(await diskRows()).toEqual(before);
  });

  it('gives a created device to the row that asked for it, even when a read-back recorded it first as one added in vCenter', async () => {
    const app = suite.adapter.app;
    const reconciler = app.get(VmDeviceReconciler, { strict: false });
    const unitOfWork = app.get(UnitOfWork, { strict: false });
    const [{ uuid: asked }] = await sql<{ uuid: string }>(
      `INSERT INTO "vsphere"."vm_disks" ("vm_uuid", "size", "name", "state") VALUES ($1, 1024, 'New disk', 'CREATING')
       RETURNING "uuid"`,
      [vmRow],
    );
    const disks = await sql<{
      device_key: number;
      size: string;
      datastore: string | null;
      label: string | null;
    }>(
      `SELECT "device_key", "size", "datastore", "label" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1 AND "device_key" IS NOT NULL`,
      [vmRow],
    );
    const nics = await sql<{
      device_key: number;
      mac_address: string | null;
      network_backend_id: string | null;
      connected: boolean;
    }>(
      `SELECT "device_key", "mac_address", "network_backend_id", "connected" FROM "vsphere"."vm_network_adapters"
       WHERE "vm_uuid" = $1 AND "device_key" IS NOT NULL`,
      [vmRow],
    );
    const remote = {
      disks: [
        ...disks.map((d) => ({
          key: d.device_key,
          sizeMiB: Number(d.size),
          datastore: d.datastore ?? undefined,
          label: d.label ?? undefined,
        })),
        { key: 990_001, sizeMiB: 1024, label: 'Hard disk 9' },
      ],
      nics: nics.map((n) => ({
        key: n.device_key,
        macAddress: n.mac_address ?? undefined,
        network: n.network_backend_id ?? undefined,
        connected: n.connected,
      })),
    };
    const networks = new Map([[forNewVms.backend_id, forNewVms.uuid]]);
    await unitOfWork.run((tx) => reconciler.reconcile(tx, vmRow, remote, networks));
    const keyed = () =>
      sql<{ uuid: string; name: string }>(
        `SELECT "uuid", "name" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1 AND "device_key" = 990001`,
        [vmRow],
      );
    const imported = await keyed();
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({ name: 'Hard disk 9' });
    expect(imported[0].uuid).not.toBe(asked);
    const result = await unitOfWork.run((tx) =>
      reconciler.reconcile(tx, vmRow, remote, networks, { table: 'disk', uuid: asked, deviceKey: 990_001 }),
    );
    expect(result.changed).toBe(true);
    expect(await keyed()).toEqual([{ uuid: asked, name: 'New disk' }]);
    await pull();
    expect(await keyed()).toEqual([]);
  });

  describe('create_disk, extend, delete', () => {
    it('answers 404 for a VM the caller does not see', async () => {
      expect(await stranger.createDisk(2048)).toEqual({ status: 'error', code: 404, detail: 'Not found.' });
    });

    it.each([
      [1023, 'Requested amount of disk is too small.'],
      [4097, 'Requested amount of disk exceeds offering limit.'],
    ])('refuses %i MiB on size: %s', async (size, message) => {
      expect(await owner.createDisk(size)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: [message] },
      });
    });

    let disk: DiskView;
    it('answers 201 with a CREATING "New disk"; its operation adds it in vcsim and the row gets its key', async () => {
      const created = answered(await owner.createDisk(2048));
      expect(created).toMatchObject({
        name: 'New disk',
        size: 2048,
        state: 'CREATING',
        backend_id: '',
        vm_uuid: vmUuid,
        error_message: '',
      });
      const op = await operationOfDevice(suite.adapter.runtime.dataSource, created.uuid);
      expect(await ended(op)).toEqual({ state: 'done', error_message: '' });
      disk = answered(await owner.disk(created.uuid));
      expect(disk).toMatchObject({ uuid: created.uuid, name: 'New disk', state: 'OK', size: 2048 });
      expect(disk.backend_id).toMatch(/^\d+$/);
      expect((await liveDisk(Number(disk.backend_id)))?.capacityInKB).toBe(2048 * 1024);
    });

    it("lists the new disk after the VM's earlier ones, in the VM and in the disks list, though vCenter gave it a lower key", async () => {
      const earlier = (await diskRows()).filter((r) => r.uuid !== disk.uuid);
      // What makes the order matter: ordered by key, the new disk would jump ahead of them.
      expect(Math.min(...earlier.map((r) => r.device_key!))).toBeGreaterThan(Number(disk.backend_id));
      const inOrder = [...earlier.map((r) => r.uuid), disk.uuid];
      const shown = answered(
        await ask<VirtualMachineView>(suite.client, 'vsphere.vm.get', {
          caller: ownerOf(customer),
          params: { uuid: vmUuid },
          query: {},
          body: {},
        }),
      );
      expect(shown.disks.map((d) => d.uuid)).toEqual(inOrder);
      expect(answered(await owner.disks()).items.map((d) => d.uuid)).toEqual(inOrder);
    });

    it("lists the VM's disks for its customer, none for another, and hides the disk from another (404)", async () => {
      const page = answered(await owner.disks());
      expect(page.items.map((d) => d.uuid)).toContain(disk.uuid);
      expect(page.count).toBe(page.items.length);
      expect(answered(await stranger.disks()).count).toBe(0);
      expect(await stranger.disk(disk.uuid)).toMatchObject({ status: 'error', code: 404 });
      expect(await stranger.extend(disk.uuid, 4096)).toMatchObject({ status: 'error', code: 404 });
    });

    it('extends it: 400 when not larger, 202 with the operation, then vcsim and the row have the new size', async () => {
      expect(await owner.extend(disk.uuid, 2048)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: ['Disk size should be greater than 2048'] },
      });
      const op = answered(await owner.extend(disk.uuid, 4096));
      expect(op).toMatchObject({
        operation: 'extend_disk',
        status: 'extend_disk was scheduled',
        disk_uuid: disk.uuid,
        vm_uuid: vmUuid,
      });
      expect(await ended(op.uuid)).toEqual({ state: 'done', error_message: '' });
      expect(answered(await owner.disk(disk.uuid))).toMatchObject({ size: 4096, state: 'OK' });
      expect((await liveDisk(Number(disk.backend_id)))?.capacityInKB).toBe(4096 * 1024);
    });

    it('refuses a disk the rest of max_disk_total cannot hold', async () => {
      const [{ total }] = await sql<{ total: string }>(
        `SELECT sum("size") AS "total" FROM "vsphere"."vm_disks" WHERE "vm_uuid" = $1`,
        [vmRow],
      );
      const left = 8192 - Number(total);
      expect(left).toBeLessThan(4096);
      expect(await owner.createDisk(left + 1)).toEqual({
        status: 'error',
        code: 400,
        fields: { size: ['Storage quota has been reached.'] },
      });
    });

    it('refuses at execution to extend a disk removed in vCenter meanwhile: the operation erred with the reason, the disk not Erred, then dropped by the pull', async () => {
      const extra = await createdDisk(1024);
      await removeDisk(suite.library.connection, vm, Number(extra.backend_id));
      const op = answered(await owner.extend(extra.uuid, 2048));
      expect(await ended(op.uuid)).toEqual({
        state: 'erred',
        error_message: 'The disk no longer exists in vCenter.',
      });
      await eventually(
        () => owner.disk(extra.uuid),
        (reply) => reply.status === 'error' && reply.code === 404,
      );
    });

    it('deletes it: 202 with the operation, then gone from vcsim and from the rows', async () => {
      const key = Number(disk.backend_id);
      const op = answered(await owner.deleteDisk(disk.uuid))!;
      expect(op).toMatchObject({ operation: 'delete_disk', disk_uuid: disk.uuid });
      expect(await ended(op.uuid)).toEqual({ state: 'done', error_message: '' });
      expect(await liveDisk(key)).toBeUndefined();
      expect(await owner.disk(disk.uuid)).toMatchObject({ status: 'error', code: 404 });
    });

    it('turns a disk vCenter cannot add (its SCSI controller full) Erred with the reason; DELETE then removes the row at once (null: 204)', async () => {
      const filled: number[] = [];
      for (;;) {
        try {
          filled.push((await addDisk(suite.library.connection, vm, { capacityInKB: 1024 })).key);
        } catch (error) {
          if (error instanceof DeviceResolutionError) break;
          throw error;
        }
        if (filled.length > 20) throw new Error('the controller never filled up');
      }
      const refused = answered(await owner.createDisk(1024));
      const op = await operationOfDevice(suite.adapter.runtime.dataSource, refused.uuid);
      expect(await ended(op)).toEqual({
        state: 'erred',
        error_message:
          'Cannot add the disk: The virtual machine has no SCSI or NVMe controller with a free unit.',
      });
      expect(answered(await owner.disk(refused.uuid))).toMatchObject({
        state: 'ERRED',
        backend_id: '',
        error_message:
          'Cannot add the disk: The virtual machine has no SCSI or NVMe controller with a free unit.',
      });
      expect(await owner.deleteDisk(refused.uuid)).toEqual({ status: 'ok', data: null });
      expect(await sql(`SELECT 1 FROM "vsphere"."vm_disks" WHERE "uuid" = $1`, [refused.uuid])).toEqual([]);
      for (const key of filled) await removeDisk(suite.library.connection, vm, key);
      await pull();
    });
  });

  describe('create_port, delete', () => {
    it.each([
      ['/api/vmware-clusters/00000000-0000-4000-8000-000000000001/', 'Invalid hyperlink - No URL match.'],
      [randomUUID(), 'Invalid hyperlink - Object does not exist.'],
    ])('refuses network %s on network', async (network, message) => {
      expect(await owner.createPort(network)).toEqual({
        status: 'error',
        code: 400,
        fields: { network: [message] },
      });
    });

    it('refuses a network assigned for new VMs only, not for existing ones', async () => {
      expect(await owner.createPort(`/api/vmware-networks/${forNewVms.uuid}/`)).toEqual({
        status: 'error',
        code: 400,
        fields: { network: ['This network is not available for this customer.'] },
      });
    });

    let port: PortView;
    it('answers 201 with a CREATING "New virtual Adapter"; its operation adds it on the network in vcsim', async () => {
      const created = answered(
        await owner.createPort(`https://x.example/api/vmware-networks/${forExisting.uuid}/`),
      );
      expect(created).toMatchObject({
        name: 'New virtual Adapter',
        state: 'CREATING',
        backend_id: '',
        network_uuid: forExisting.uuid,
        network_name: 'VM Network',
        vm_uuid: vmUuid,
      });
      expect(
        await ended(await operationOfDevice(suite.adapter.runtime.dataSource, created.uuid)),
      ).toMatchObject({
        state: 'done',
      });
      port = answered(await owner.port(created.uuid));
      // The VM runs: the adapter is connected at once, not at the next power-on.
      expect(port).toMatchObject({
        state: 'OK',
        network_uuid: forExisting.uuid,
        network_name: 'VM Network',
        runtime_state: 'CONNECTED',
      });
      expect(port.mac_address).toMatch(/^[0-9a-f:]{17}$/);
      const nic = (await live()).devices.find((d) => d.kind === 'nic' && d.key === Number(port.backend_id));
      expect(nic).toMatchObject({
        macAddress: port.mac_address,
        connected: true,
        backing: { kind: 'standard', network: { value: forExisting.backend_id } },
      });
    });

    it("refuses an eleventh adapter (counting those being created) with Waldur's message", async () => {
      const count = answered(await owner.ports()).count;
      const made: PortView[] = [];
      for (let i = count; i < 10; i++) made.push(answered(await owner.createPort(forExisting.uuid)));
      expect(await owner.createPort(forExisting.uuid)).toEqual({
        status: 'error',
        code: 400,
        fields: { non_field_errors: ['Virtual machine can have at most 10 network adapters.'] },
      });
      for (const p of made)
        expect(await ended(await operationOfDevice(suite.adapter.runtime.dataSource, p.uuid))).toMatchObject({
          state: 'done',
        });
      expect((await live()).devices.filter((d) => d.kind === 'nic')).toHaveLength(10);
    });

    it('deletes the adapter: 202, then gone from vcsim and from the rows', async () => {
      const op = answered(await owner.deletePort(port.uuid))!;
      expect(op).toMatchObject({ operation: 'delete_port', port_uuid: port.uuid });
      expect(await ended(op.uuid)).toEqual({ state: 'done', error_message: '' });
      expect((await live()).devices.some((d) => d.key === Number(port.backend_id))).toBe(false);
      expect(await owner.port(port.uuid)).toMatchObject({ status: 'error', code: 404 });
    });

    it('refuses at execution an adapter beyond the tenth when vCenter got a tenth meanwhile: the port Erred with the reason, the VM not left UPDATING', async () => {
      const vmNetwork = (await readNetworks(suite.library.connection)).find((n) => n.name === 'VM Network')!;
      const nicsNow = async () => (await live()).devices.filter((d) => d.kind === 'nic').length;
      expect(answered(await owner.ports()).count).toBe(9);
      // Behind the adapter's back: vCenter's tenth adapter, not yet pulled, so the request is taken.
      const direct = await addNic(suite.library.connection, vm, vmNetwork);
      expect(await nicsNow()).toBe(10);
      const refused = answered(await owner.createPort(forExisting.uuid));
      const op = await ended(await operationOfDevice(suite.adapter.runtime.dataSource, refused.uuid));
      // The executor's live count refuses it before vCenter would (the front: TooManyDevices).
      expect(op).toEqual({ state: 'erred', error_message: DEVICE_MESSAGES.tooManyPorts });
      expect(answered(await owner.port(refused.uuid))).toMatchObject({
        state: 'ERRED',
        backend_id: '',
        error_message: op.error_message,
      });
      expect(await nicsNow()).toBe(10);
      const [row] = await sql<{ state: string }>(
        `SELECT "state" FROM "vsphere"."virtual_machines" WHERE "uuid" = $1`,
        [vmRow],
      );
      expect(row.state).not.toBe('UPDATING');
      await removeNic(suite.library.connection, vm, direct.key);
      await pull();
    });
  });
});
