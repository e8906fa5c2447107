import { randomUUID } from 'node:crypto';
import { readVirtualMachine, type MoRef, type SnapshotTree, type VmInfo } from '@app/vim25';
import type { Caller, DiskView, PortView, RequestReply, VmOperationView } from '@app/contracts';
import { DEADLINE_PASSED, KEY_REUSED } from '@app/messaging';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { answered, operationEnded, operationOfDevice } from './support/device-requests';
import { assignForExistingVms, connectSuiteVcenter, orderVm } from './support/device-suite';
import type { Listed } from './support/order-fixture';
import { ask } from './support/requests';
import { callerWith } from './support/callers';

jest.setTimeout(180_000);

/**
 * The IETF httpapi draft's `Idempotency-Key` on the adapter's creating requests (a VM's
 * create_disk, create_port, create_snapshot), as the gateway forwards it (`meta.idempotency_key`):
 * a retry of a request whose answer was lost answers the first answer and makes nothing again in
 * vcsim; the same key with another body is 422; a refused request keeps no key.
 */
describe('Idempotency-Key on create_disk, create_port and create_snapshot, counted in vcsim', () => {
  let suite: AdapterSuite;
  const offering = randomUUID();
  const customer = randomUUID();
  let forExisting: Listed;
  let vmUuid: string;
  let vm: MoRef;
  const ownerUser = randomUUID();
  const owner: Caller = callerWith({ owned: [customer], userUuid: ownerUser });

  /** One request as the gateway sends it, with the client's key (and the gateway's deadline). */
  const send = <T>(
    pattern: string,
    body: object,
    key?: string,
    caller: Caller = owner,
    deadline = Date.now() + 30_000,
  ) =>
    ask<T>(suite.client, pattern, {
      caller,
      params: { uuid: vmUuid },
      query: {},
      body,
      meta: { deadline, ...(key === undefined ? {} : { idempotency_key: key }) },
    });
  const createDisk = (size: number, key?: string, caller?: Caller) =>
    send<DiskView>('vsphere.vm.create_disk', { size }, key, caller);
  const createPort = (network: string, key?: string) =>
    send<PortView>('vsphere.vm.create_port', { network }, key);
  const createSnapshot = (name: string, key?: string) =>
    send<VmOperationView>('vsphere.vm.create_snapshot', { name }, key);

  const live = async (): Promise<VmInfo> => (await readVirtualMachine(suite.library.connection, vm))!;
  const count = async (kind: 'disk' | 'nic') => (await live()).devices.filter((d) => d.kind === kind).length;
  const snapshotNames = async () => {
    const names = (trees: readonly SnapshotTree[]): string[] =>
      trees.flatMap((tree) => [tree.name, ...names(tree.children)]);
    return names((await live()).snapshot?.rootSnapshotList ?? []);
  };
  const rows = async (table: 'vm_disks' | 'vm_network_adapters'): Promise<number> => {
    const [row]: { n: number }[] = await suite.adapter.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM "vsphere"."${table}" d
       JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid" WHERE v."backend_uuid" = $1`,
      [vmUuid],
    );
    return row.n;
  };
  const ended = (uuid: string) => operationEnded(suite.adapter.runtime.dataSource, uuid);
  const deviceDone = async (uuid: string) =>
    expect(await ended(await operationOfDevice(suite.adapter.runtime.dataSource, uuid))).toMatchObject({
      state: 'done',
    });

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_idempotency_keys',
      namespace: 'adapteridemkeys',
      env: { VSPHERE_DEPLOY_TIMEOUT_MS: '60000', VSPHERE_OPERATION_POLL_MS: '500' },
    });
    await suite.library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const inv = await connectSuiteVcenter(suite, offering, { max_disk: 4096, max_disk_total: 65536 });
    forExisting = inv.networks.get('VM Network')!;
    await assignForExistingVms(suite, customer, forExisting);
    ({ vmUuid, ref: vm } = await orderVm(suite, {
      offering,
      customer,
      name: 'idempotency-1',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: inv.networks.get('DC0_DVPG0')!,
    }));
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  it('create_disk retried with its key answers the first disk and makes one disk in vcsim; another size under the key is 422', async () => {
    const [disksBefore, rowsBefore] = [await count('disk'), await rows('vm_disks')];
    const key = randomUUID();
    const first = await createDisk(1024, key);
    const disk = answered(first);
    // The client never saw the first answer (a dropped connection): it sends the same request again.
    const retry = await createDisk(1024, key);
    expect(retry).toEqual(first);
    await deviceDone(disk.uuid);
    expect(await createDisk(1024, key)).toEqual(first);
    expect(await createDisk(2048, key)).toEqual({ status: 'error', code: 422, detail: KEY_REUSED });
    expect(await count('disk')).toBe(disksBefore + 1);
    expect(await rows('vm_disks')).toBe(rowsBefore + 1);
  });

  it("commits nothing past the gateway's deadline: 503, no disk, and the retry under the same key makes it", async () => {
    const rowsBefore = await rows('vm_disks');
    const key = randomUUID();
    const late = await send<DiskView>('vsphere.vm.create_disk', { size: 1024 }, key, owner, Date.now() - 1);
    expect(late).toEqual({ status: 'error', code: 503, detail: DEADLINE_PASSED });
    expect(await rows('vm_disks')).toBe(rowsBefore);
    const made = answered(await createDisk(1024, key));
    await deviceDone(made.uuid);
    expect(await rows('vm_disks')).toBe(rowsBefore + 1);
  });

  it('keeps keys per user: another user’s request under the same key is a request of its own', async () => {
    const key = randomUUID();
    const mine = answered(await createDisk(1024, key));
    const other = callerWith({ owned: [customer], userUuid: randomUUID() });
    const theirs = answered(await createDisk(1024, key, other));
    expect(theirs.uuid).not.toBe(mine.uuid);
    await deviceDone(mine.uuid);
    await deviceDone(theirs.uuid);
  });

  it('keeps no key for a refused request: the corrected request under the same key makes the disk', async () => {
    const rowsBefore = await rows('vm_disks');
    const key = randomUUID();
    const refused = await createDisk(1_000_000, key);
    expect(refused).toMatchObject({ status: 'error', code: 400 });
    const made = answered(await createDisk(2048, key));
    expect(made).toMatchObject({ size: 2048, state: 'CREATING' });
    await deviceDone(made.uuid);
    expect(await rows('vm_disks')).toBe(rowsBefore + 1);
  });

  it('create_port retried with its key answers the first adapter and makes one NIC in vcsim; another network under the key is 422', async () => {
    const [nicsBefore, rowsBefore] = [await count('nic'), await rows('vm_network_adapters')];
    const key = randomUUID();
    const network = `/api/vmware-networks/${forExisting.uuid}/`;
    const first = await createPort(network, key);
    const port = answered(first);
    expect(await createPort(network, key)).toEqual(first);
    await deviceDone(port.uuid);
    expect(await createPort(network, key)).toEqual(first);
    expect(await createPort(`/api/vmware-networks/${randomUUID()}/`, key)).toEqual({
      status: 'error',
      code: 422,
      detail: KEY_REUSED,
    });
    expect(await count('nic')).toBe(nicsBefore + 1);
    expect(await rows('vm_network_adapters')).toBe(rowsBefore + 1);
  });

  it('create_snapshot retried with its key answers the first operation and takes one snapshot in vcsim; another name under the key is 422', async () => {
    const key = randomUUID();
    const name = `retried-${key.slice(0, 8)}`;
    const first = await createSnapshot(name, key);
    const operation = answered(first);
    expect(operation).toMatchObject({ operation: 'create_snapshot' });
    expect(await createSnapshot(name, key)).toEqual(first);
    expect(await ended(operation.uuid)).toMatchObject({ state: 'done' });
    expect(await createSnapshot(name, key)).toEqual(first);
    expect(await createSnapshot(`${name}-other`, key)).toEqual({
      status: 'error',
      code: 422,
      detail: KEY_REUSED,
    });
    expect((await snapshotNames()).filter((n) => n.startsWith(name))).toEqual([name]);
    const [{ n }]: { n: number }[] = await suite.adapter.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM "vsphere"."vm_operations" WHERE "kind" = 'create_snapshot' AND "params"->>'name' = $1`,
      [name],
    );
    expect(n).toBe(1);
  });

  it('an assignment retried with its key answers the first one; without a key the retry is refused as a duplicate', async () => {
    const key = randomUUID();
    const admin = callerWith({ staff: true, userUuid: randomUUID() });
    const add = (network: string, withKey?: string) =>
      ask(suite.client, 'vsphere.assignments.networks.add', {
        caller: admin,
        params: {},
        query: {},
        body: { customer, network },
        meta: withKey === undefined ? {} : { idempotency_key: withKey },
      });
    const first = await add(forExisting.uuid, key);
    expect(first).toMatchObject({ status: 'ok' });
    expect(await add(forExisting.uuid, key)).toEqual(first);
    expect(await add(forExisting.uuid)).toMatchObject({ status: 'error', code: 400 });
    expect(await add(randomUUID(), key)).toEqual({ status: 'error', code: 422, detail: KEY_REUSED });
  });

  it('answers 409 to the retry of a create still in flight, and the first answer once it is stored', async () => {
    const key = randomUUID();
    const rowsBefore = await rows('vm_disks');
    const replies: RequestReply<DiskView>[] = await Promise.all([
      createDisk(1024, key),
      createDisk(1024, key),
      createDisk(1024, key),
    ]);
    const made = replies.filter((r) => r.status === 'ok');
    expect(made.length).toBeGreaterThanOrEqual(1);
    const uuids = new Set(made.map((r) => answered(r).uuid));
    expect(uuids.size).toBe(1);
    for (const reply of replies.filter((r) => r.status !== 'ok'))
      expect(reply).toMatchObject({ status: 'error', code: 409 });
    expect(await createDisk(1024, key)).toEqual(made[0]);
    await deviceDone([...uuids][0]);
    expect(await rows('vm_disks')).toBe(rowsBefore + 1);
  });
});
