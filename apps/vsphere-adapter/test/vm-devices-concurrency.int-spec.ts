import { randomUUID } from 'node:crypto';
import { readVirtualMachine, type MoRef, type VmInfo } from '@app/vim25';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { answered, deviceRequests, operationEnded, operationOfDevice } from './support/device-requests';
import { assignForExistingVms, connectSuiteVcenter, orderVm } from './support/device-suite';
import type { Listed } from './support/order-fixture';
import { ownerOf } from './support/requests';

jest.setTimeout(180_000);

/**
 * Requests on one VM that arrive together: the queue runs them one at a time, and each created
 * device is bound to the row that asked for it (key diff by backing or controller and unit),
 * never to a sibling's.
 */
describe('ten device requests on one VM at once', () => {
  let suite: AdapterSuite;
  const offering = randomUUID();
  const customer = randomUUID();
  let networks: Listed[];
  let vm: MoRef;
  let vmUuid: string;
  let vmRow: string;
  let owner: ReturnType<typeof deviceRequests>;

  const live = async (): Promise<VmInfo> => (await readVirtualMachine(suite.library.connection, vm))!;
  const ended = async (deviceUuid: string) =>
    operationEnded(
      suite.adapter.runtime.dataSource,
      await operationOfDevice(suite.adapter.runtime.dataSource, deviceUuid),
    );

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_vm_devices_concurrency',
      namespace: 'adaptervmdevconc',
      env: { VSPHERE_DEPLOY_TIMEOUT_MS: '60000', VSPHERE_OPERATION_POLL_MS: '500' },
    });
    await suite.library.publish('Bare', { nics: 0, memoryMB: 1024 });
    const inv = await connectSuiteVcenter(suite, offering);
    networks = [inv.networks.get('VM Network')!, inv.networks.get('DC0_DVPG0')!];
    for (const network of networks) await assignForExistingVms(suite, customer, network);
    ({
      ref: vm,
      vmUuid,
      rowUuid: vmRow,
    } = await orderVm(suite, {
      offering,
      customer,
      name: 'busy-1',
      template: inv.templates.get('Bare')!,
    }));
    owner = deviceRequests(suite.client, ownerOf(customer), vmUuid);
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  it('makes ten adapters, each row bound to its own device on the network it asked for', async () => {
    expect((await live()).devices.filter((d) => d.kind === 'nic')).toHaveLength(0);
    const asked = Array.from({ length: 10 }, (_, i) => networks[i % 2]);
    const ports = await Promise.all(asked.map(async (n) => answered(await owner.createPort(n.uuid))));
    for (const port of ports) expect(await ended(port.uuid)).toEqual({ state: 'done', error_message: '' });

    const nics = (await live()).devices.filter((d) => d.kind === 'nic');
    expect(nics).toHaveLength(10);
    const views = await Promise.all(ports.map(async (p) => answered(await owner.port(p.uuid))));
    expect(new Set(views.map((v) => v.backend_id)).size).toBe(10);
    views.forEach((view, i) => {
      expect(view).toMatchObject({ state: 'OK', network_uuid: asked[i].uuid });
      const nic = nics.find((d) => d.key === Number(view.backend_id));
      const backing = nic?.kind === 'nic' ? nic.backing : undefined;
      const on =
        backing?.kind === 'standard'
          ? backing.network?.value
          : backing?.kind === 'distributed'
            ? backing.portgroupKey
            : undefined;
      expect(on).toBe(asked[i].backend_id);
      expect(view.mac_address).toBe(nic?.kind === 'nic' ? nic.macAddress : undefined);
    });
    const rows: { n: number }[] = await suite.adapter.runtime.dataSource.query(
      `SELECT count(*)::int AS "n" FROM "vsphere"."vm_network_adapters" WHERE "vm_uuid" = $1`,
      [vmRow],
    );
    expect(rows[0].n).toBe(10);
  });

  it('carries out ten disk operations at once: every disk made at the size its row asked for', async () => {
    const sizes = Array.from({ length: 10 }, (_, i) => 1024 + 64 * i);
    const disks = await Promise.all(sizes.map(async (size) => answered(await owner.createDisk(size))));
    for (const disk of disks) expect(await ended(disk.uuid)).toEqual({ state: 'done', error_message: '' });

    const liveDisks = (await live()).devices.filter((d) => d.kind === 'disk');
    const views = await Promise.all(disks.map(async (d) => answered(await owner.disk(d.uuid))));
    expect(new Set(views.map((v) => v.backend_id)).size).toBe(10);
    views.forEach((view, i) => {
      expect(view).toMatchObject({ state: 'OK', size: sizes[i] });
      const disk = liveDisks.find((d) => d.key === Number(view.backend_id));
      expect(disk?.kind === 'disk' ? disk.capacityInKB : undefined).toBe(sizes[i] * 1024);
    });
  });

  it('extends five disks and deletes five at once: all ten operations done, vcsim as asked', async () => {
    const disks = answered(await owner.disks()).items.filter((d) => d.name === 'New disk');
    expect(disks).toHaveLength(10);
    const [grow, drop] = [disks.slice(0, 5), disks.slice(5)];
    const ops = await Promise.all([
      ...grow.map(async (d) => answered(await owner.extend(d.uuid, d.size + 1024))),
      ...drop.map(async (d) => answered(await owner.deleteDisk(d.uuid))!),
    ]);
    for (const op of ops)
      expect(await operationEnded(suite.adapter.runtime.dataSource, op.uuid)).toEqual({
        state: 'done',
        error_message: '',
      });
    const liveDisks = (await live()).devices.filter((d) => d.kind === 'disk');
    for (const d of grow) {
      const disk = liveDisks.find((l) => l.key === Number(d.backend_id));
      expect(disk?.kind === 'disk' ? disk.capacityInKB : undefined).toBe((d.size + 1024) * 1024);
      expect(answered(await owner.disk(d.uuid))).toMatchObject({ size: d.size + 1024, state: 'OK' });
    }
    for (const d of drop) {
      expect(liveDisks.some((l) => l.key === Number(d.backend_id))).toBe(false);
      expect(await owner.disk(d.uuid)).toMatchObject({ status: 'error', code: 404 });
    }
  });

  it('takes an extend and two deletes of one disk at once without a deadlock: each answered, none failed', async () => {
    const made = await Promise.all([1, 2, 3].map(async () => answered(await owner.createDisk(1024))));
    for (const disk of made) expect(await ended(disk.uuid)).toEqual({ state: 'done', error_message: '' });
    // Found by the access matrix: a delete locked the disk's row and then the VM's, an extend the
    // VM's and then the disk's; Postgres broke the cycle and the loser was answered 500.
    const replies = await Promise.allSettled(
      made.flatMap((disk) => [
        owner.extend(disk.uuid, 2048),
        owner.deleteDisk(disk.uuid),
        owner.deleteDisk(disk.uuid),
      ]),
    );
    const outcomes = replies.map((reply) =>
      reply.status === 'rejected'
        ? `failed: ${JSON.stringify(reply.reason)}`
        : reply.value.status === 'ok'
          ? 'ok'
          : (reply.value.code ?? JSON.stringify(reply.value)),
    );
    // Per disk: the first request taken goes ahead; the others find the disk busy (409) or, when the
    // delete that went ahead had already ended (on a loaded machine), gone (404) — never a 500.
    const perDisk = made.map((_, index) => ({
      extend: outcomes[index * 3],
      deletes: outcomes.slice(index * 3 + 1, index * 3 + 3),
    }));
    for (const { extend, deletes } of perDisk) {
      const all = [extend, ...deletes];
      expect(all.filter((outcome) => outcome !== 'ok' && outcome !== 409 && outcome !== 404)).toEqual([]);
      expect(all).toContain('ok');
      if (all.includes(404)) expect(deletes).toContain('ok');
    }
  });
});
