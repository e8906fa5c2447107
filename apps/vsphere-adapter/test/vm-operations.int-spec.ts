import { randomUUID } from 'node:crypto';
import {
  addDisk,
  destroyVm,
  markTemplateAsVm,
  markVmAsTemplate,
  powerOffVm,
  powerOnVm,
  readVirtualMachine,
  type MoRef,
} from '@app/vim25';
import type { Envelope, RequestReply, VmChanged, VmOperationView } from '@app/contracts';
import { readEnvelopes } from '../../../test/support/stream-reader';
import { eventually } from '../../../test/support/virtual-machines';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { VSPHERE_MESSAGES } from '../src/machines/domain/hardware-rules';
import { TAKEN_OVER } from '../src/machines/operations/vm-operation-runner.service';
import { UnitOfWork } from '@app/messaging';
import { SyncLockRepository } from '../src/integration/repositories/sync-lock.repository';
import { VcenterAccessService } from '../src/integration/services/vcenter-access.service';
import { VmViewRepository } from '../src/machines/repositories/vm-view.repository';
import { VmPullService } from '../src/machines/services/vm-pull.service';
import { VmRecordService } from '../src/machines/services/vm-record.service';
import { VM_PROVISIONER, type VmProvisioner } from '../src/vcenter/ports/vm-provisioner.port';
import type { AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import { assignSuiteFolder, connectSuiteVcenter, orderVm } from './support/device-suite';
import { ask, dataOf, staff, type RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('VM day-2 operations: queued per VM, carried out in vcsim, recorded with VmChanged', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  const customer = randomUUID();
  let vmUuid: string;
  let ref: MoRef;

  const request = <T>(pattern: string, body: Record<string, unknown> = {}): Promise<RequestReply<T>> =>
    ask<T>(client, pattern, { caller: staff(), params: { uuid: vmUuid }, query: {}, body });

  /** Waits until the operation is done or erred; its row. */
  const ended = async (
    uuid: string,
  ): Promise<{ state: string; error_message: string; claimed_by: string }> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row]: { state: string; error_message: string; claimed_by: string }[] =
        await adapter.runtime.dataSource.query(
          `SELECT "state", "error_message", "claimed_by" FROM "vsphere"."vm_operations" WHERE "uuid" = $1`,
          [uuid],
        );
      if (row !== undefined && (row.state === 'done' || row.state === 'erred')) return row;
      if (Date.now() > deadline) throw new Error(`operation ${uuid} did not end: ${JSON.stringify(row)}`);
      await sleep(100);
    }
  };

  const recorded = async (): Promise<{ runtime_state: string; state: string; cpu: number; ram: number }> => {
    const [row]: { runtime_state: string; state: string; cpu: number; ram: number }[] =
      await adapter.runtime.dataSource.query(
        `SELECT "runtime_state", "state", "cpu", "ram" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
        [vmUuid],
      );
    return row;
  };

  /** Every VmChanged of the VM on the stream, in order. */
  const vmChanges = async (): Promise<Envelope<VmChanged>[]> =>
    (
      (await readEnvelopes(
        nats.jsm,
        nats.topology.streams.vsphere.name,
        nats.topology.subjects.vmChanged,
      )) as Envelope<VmChanged>[]
    ).filter((e) => e.correlationId === vmUuid);

  /** Waits for the relay to publish a VmChanged matching `match`. */
  const changeWhere = async (match: (e: VmChanged) => boolean): Promise<VmChanged> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = (await vmChanges()).map((e) => e.data).find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('no such VmChanged');
      await sleep(200);
    }
  };

  const power = async () => (await readVirtualMachine(library.connection, ref))?.powerState;

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_vm_operations',
      namespace: 'adaptervmops',
      vcsim: { args: ['-folder', '1'] },
      env: {
        VSPHERE_DEPLOY_TIMEOUT_MS: '60000',
        VSPHERE_OPERATION_LEASE_MS: '3000',
        VSPHERE_OPERATION_POLL_MS: '500',
        VSPHERE_VM_PULL_INTERVAL_MS: '1500',
        // This suite proves the pull: no live subscription records anything before it.
        VSPHERE_VM_WATCH: 'false',
      },
    }));
    await library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const suite = { sim, db, nats, adapter, client, library };
    const inv = await connectSuiteVcenter(suite, offering);
    const ordered = await orderVm(suite, {
      offering,
      customer,
      name: 'ops-1',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: inv.networks.get('DC0_DVPG0')!,
      folder: await assignSuiteFolder(suite, customer, inv),
      limits: { cpu: 2, ram: 2048 },
    });
    vmUuid = ordered.vmUuid;
    ref = ordered.ref;
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it('answers stop with 202 and the scheduled operation; vcsim powers off; VmChanged carries it running then done', async () => {
    const accepted = dataOf(await request<VmOperationView>('vsphere.vm.stop'));
    expect(accepted).toMatchObject({ status: 'stop was scheduled', operation: 'stop', vm_uuid: vmUuid });
    expect(await ended(accepted.uuid)).toMatchObject({ state: 'done' });
    expect(await power()).toBe('poweredOff');
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
    const done = await changeWhere(
      (e) => e.operation?.uuid === accepted.uuid && e.operation.state === 'done',
    );
    expect(done.vm).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK', error_message: '' });
    expect(done.previousState).toBe('POWERED_ON');
    expect(done.vm.ports).toHaveLength(1);
    const updating = await changeWhere(
      (e) => e.operation?.uuid === accepted.uuid && e.vm.state === 'UPDATING',
    );
    expect(updating.vm.runtime_state).toBe('POWERED_ON');
  });

  it('refuses stop of a powered-off VM with 409 and the reason; vcsim unchanged, nothing queued', async () => {
    expect(await request('vsphere.vm.stop')).toEqual({
      status: 'error',
      code: 409,
      detail: 'The virtual machine must be POWERED_ON or SUSPENDED to stop; it is POWERED_OFF.',
    });
    expect(await power()).toBe('poweredOff');
    const [{ n }]: { n: number }[] = await adapter.runtime.dataSource.query(
      `SELECT count(*)::int AS "n" FROM "vsphere"."vm_operations" WHERE "state" IN ('pending', 'running')`,
    );
    expect(n).toBe(0);
  });

  it("refuses a resize beyond vSphere 8's maximums with 400 naming each field; vcsim unchanged, nothing queued", async () => {
    const before = await readVirtualMachine(library.connection, ref);
    expect(
      await request('vsphere.vm.update', { cores: 769, cores_per_socket: 1, ram: 24_560 * 1024 + 4 }),
    ).toEqual({
      status: 'error',
      code: 400,
      fields: { cores: [VSPHERE_MESSAGES.cpu], ram: [VSPHERE_MESSAGES.ram] },
    });
    expect(await request('vsphere.vm.update', { cores: 512, cores_per_socket: 512 })).toEqual({
      status: 'error',
      code: 400,
      fields: { cores_per_socket: [VSPHERE_MESSAGES.coresPerSocket] },
    });
    const after = await readVirtualMachine(library.connection, ref);
    expect({ cpu: after?.numCPU, ram: after?.memoryMB }).toEqual({
      cpu: before?.numCPU,
      ram: before?.memoryMB,
    });
    const [{ n }]: { n: number }[] = await adapter.runtime.dataSource.query(
      `SELECT count(*)::int AS "n" FROM "vsphere"."vm_operations" WHERE "state" IN ('pending', 'running')`,
    );
    expect(n).toBe(0);
  });

  it('resizes a powered-off VM (vcsim shows it) and refuses RAM below the minimum naming the field', async () => {
    expect(await request('vsphere.vm.update', { ram: 512 })).toEqual({
      status: 'error',
      code: 400,
      fields: { ram: ['Requested amount of RAM is too small.'] },
    });
    const accepted = dataOf(await request<VmOperationView>('vsphere.vm.update', { cores: 4, ram: 4096 }));
    expect(accepted.status).toBe('update was scheduled');
    expect(await ended(accepted.uuid)).toMatchObject({ state: 'done' });
    expect(await readVirtualMachine(library.connection, ref)).toMatchObject({ numCPU: 4, memoryMB: 4096 });
    expect(await recorded()).toMatchObject({ cpu: 4, ram: 4096, state: 'OK' });
  });

  it('carries out two requests on one VM in the order they came, none refused: resize, then start', async () => {
    // The second comes while the first is queued or running (nothing waits for its end).
    const first = dataOf(await request<VmOperationView>('vsphere.vm.update', { ram: 3072 }));
    const second = dataOf(await request<VmOperationView>('vsphere.vm.start'));
    // Had the start run first, the resize would have found the VM running and erred.
    expect(await ended(first.uuid)).toMatchObject({ state: 'done', error_message: '' });
    expect(await ended(second.uuid)).toMatchObject({ state: 'done', error_message: '' });
    expect(await readVirtualMachine(library.connection, ref)).toMatchObject({
      memoryMB: 3072,
      powerState: 'poweredOn',
    });
    const [a, b]: { finished: Date }[] = await adapter.runtime.dataSource.query(
      `SELECT "finished" FROM "vsphere"."vm_operations" WHERE "uuid" = ANY($1::uuid[]) ORDER BY "created"`,
      [[first.uuid, second.uuid]],
    );
    expect(a.finished.getTime()).toBeLessThanOrEqual(b.finished.getTime());
  });

  it('takes ten requests on one VM at once: every one queued (none failing on a lock) and carried out', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => request<VmOperationView>('vsphere.vm.reset')),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill('ok'));
    for (const answer of answers)
      expect(await ended(dataOf(answer).uuid)).toMatchObject({ state: 'done', error_message: '' });
    expect(await power()).toBe('poweredOn');
  });

  it('refuses a resize of a running VM and a guest shutdown without VMware Tools, with 409', async () => {
    expect(await request('vsphere.vm.update', { cores: 2 })).toEqual({
      status: 'error',
      code: 409,
      detail: 'The virtual machine must be POWERED_OFF to be resized; it is POWERED_ON.',
    });
    expect(await request('vsphere.vm.shutdown_guest')).toEqual({
      status: 'error',
      code: 409,
      detail: 'VMware Tools are not running.',
    });
    expect(await power()).toBe('poweredOn');
  });

  it('gives staff a VMRC URL with no ticket, on the host and port of the offering', async () => {
    const host = new URL(sim.url).host;
    expect(dataOf(await request<{ url: string }>('vsphere.vm.console')).url).toBe(
      `vmrc://${host}/?moid=${ref.value}`,
    );
  });

  it('gives a web console URL with a new ticket vCenter made for this VM on each request', async () => {
    const first = dataOf(await request<{ url: string }>('vsphere.vm.web_console')).url;
    const second = dataOf(await request<{ url: string }>('vsphere.vm.web_console')).url;
    const shape = new RegExp(`^wss://${new URL(sim.url).host.replace(/\./g, '\\.')}/ticket/[0-9a-f]+$`);
    expect(first).toMatch(shape);
    expect(second).toMatch(shape);
    expect(first).not.toBe(second);
  });

  it('records a VM powered off directly in vcsim: after the pull action, and after the periodic pull', async () => {
    await powerOffVm(library.connection, ref);
    const pulled = dataOf(await request<VmOperationView>('vsphere.vm.pull'));
    expect(await ended(pulled.uuid)).toMatchObject({ state: 'done' });
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
    await changeWhere((e) => e.operation?.uuid === pulled.uuid && e.vm.runtime_state === 'POWERED_OFF');

    await powerOnVm(library.connection, ref);
    const drift = await changeWhere(
      (e) => e.operation === null && e.vm.runtime_state === 'POWERED_ON' && e.previousState === 'POWERED_OFF',
    );
    expect(drift.vm.state).toBe('OK');
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_ON' });
  });

  it('takes over an operation whose instance stopped renewing its lease, and ends a device creation instead of repeating it', async () => {
    const [vm]: { uuid: string }[] = await adapter.runtime.dataSource.query(
      `SELECT "uuid" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    const crashed = randomUUID();
    await adapter.runtime.dataSource.query(
      `INSERT INTO "vsphere"."vm_operations" ("uuid", "vm_uuid", "kind", "state", "claimed_by", "started", "lease_until")
       VALUES ($1, $2, 'stop', 'running', 'crashed-instance', now() - interval '5 minutes', now() - interval '1 minute')`,
      [crashed, vm.uuid],
    );
    expect(await ended(crashed)).toMatchObject({ state: 'done', error_message: '' });
    expect((await ended(crashed)).claimed_by).not.toBe('crashed-instance');
    expect(await power()).toBe('poweredOff');

    // A disk the crashed instance was creating: its row has no device key yet.
    const diskRow = randomUUID();
    await adapter.runtime.dataSource.query(
      `INSERT INTO "vsphere"."vm_disks" ("uuid", "vm_uuid", "device_key", "size", "name", "state")
       VALUES ($1, $2, NULL, 1024, 'New disk', 'CREATING')`,
      [diskRow, vm.uuid],
    );
    const disk = randomUUID();
    await adapter.runtime.dataSource.query(
      `INSERT INTO "vsphere"."vm_operations" ("uuid", "vm_uuid", "kind", "disk_uuid", "state", "claimed_by", "started", "lease_until")
       VALUES ($1, $2, 'create_disk', $3, 'running', 'crashed-instance', now() - interval '5 minutes', now() - interval '1 minute')`,
      [disk, vm.uuid, diskRow],
    );
    expect(await ended(disk)).toEqual({
      state: 'erred',
      error_message: TAKEN_OVER,
      claimed_by: 'crashed-instance',
    });
    const [pull]: { uuid: string }[] = await adapter.runtime.dataSource.query(
      `SELECT "uuid" FROM "vsphere"."vm_operations" WHERE "vm_uuid" = $1 AND "kind" = 'pull' ORDER BY "created" DESC LIMIT 1`,
      [vm.uuid],
    );
    expect(await ended(pull.uuid)).toMatchObject({ state: 'done' });
    const change = await changeWhere((e) => e.operation?.uuid === disk && e.operation.state === 'erred');
    // The message stays on the disk; the VM itself is fine.
    expect(change.vm.disks.find((d) => d.uuid === diskRow)).toMatchObject({
      state: 'ERRED',
      error_message: TAKEN_OVER,
      backend_id: '',
    });
    expect(await recorded()).toMatchObject({ state: 'OK' });
  });

  it("ends an operation vCenter refuses as erred with vCenter's message on the VM (ERRED); the next success clears it", async () => {
    expect(await power()).toBe('poweredOff');
    const before = (await readVirtualMachine(library.connection, ref))!;
    await markVmAsTemplate(library.connection, ref);
    const refused = dataOf(await request<VmOperationView>('vsphere.vm.start'));
    const erred = await ended(refused.uuid);
    expect(erred.state).toBe('erred');
    expect(erred.error_message).toMatch(/template/i);
    const change = await changeWhere(
      (e) => e.operation?.uuid === refused.uuid && e.operation.state === 'erred',
    );
    expect(change.vm).toMatchObject({ state: 'ERRED', error_message: erred.error_message });
    expect(change.operation?.error_message).toBe(erred.error_message);

    await markTemplateAsVm(library.connection, ref, before.resourcePool!, before.host);
    const started = dataOf(await request<VmOperationView>('vsphere.vm.start'));
    expect(await ended(started.uuid)).toMatchObject({ state: 'done' });
    expect(await power()).toBe('poweredOn');
    expect(await recorded()).toMatchObject({ state: 'OK', runtime_state: 'POWERED_ON' });
  });

  it('records a disk added directly in vcsim by the periodic pull: a new OK row and VmChanged with it', async () => {
    const added = await addDisk(library.connection, ref, { capacityInKB: 2 * 1024 * 1024 });
    const key = String(added.key);
    const drift = await changeWhere(
      (e) => e.operation === null && e.vm.disks.some((d) => d.backend_id === key),
    );
    expect(drift.vm.disks.find((d) => d.backend_id === key)).toMatchObject({ state: 'OK', size: 2048 });
    const rows: { size: string; state: string }[] = await adapter.runtime.dataSource.query(
      `SELECT d."size", d."state" FROM "vsphere"."vm_disks" d
       JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid"
       WHERE v."backend_uuid" = $1 AND d."device_key" = $2`,
      [vmUuid, added.key],
    );
    expect(rows).toEqual([{ size: '2048', state: 'OK' }]);
    const [vm]: { disk: string }[] = await adapter.runtime.dataSource.query(
      `SELECT "disk" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    expect(Number(vm.disk)).toBe(
      drift.vm.disks.filter((d) => d.backend_id !== '').reduce((s, d) => s + d.size, 0),
    );
  });

  it('a pull whose read began before a change was recorded leaves that change; one that began after records vCenter', async () => {
    const app = adapter.app;
    const [row]: { uuid: string; name: string }[] = await adapter.runtime.dataSource.query(
      `SELECT "uuid", "name" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    const access = (await app.get(VcenterAccessService).forOffering(offering))!;
    const readVcenter = async () =>
      app
        .get<VmProvisioner>(VM_PROVISIONER)
        .readAll(await access.connection(), { timeoutMs: 30_000, signal: AbortSignal.timeout(30_000) });
    const name = async () => {
      const [now]: { name: string }[] = await adapter.runtime.dataSource.query(
        `SELECT "name" FROM "vsphere"."virtual_machines" WHERE "uuid" = $1`,
        [row.uuid],
      );
      return now.name;
    };
    // The periodic pull is kept out while the two reads race by hand.
    const run = await eventually(
      () =>
        app.get(SyncLockRepository).withLock(
          offering,
          async () => {
            const pulls = app.get(VmPullService);
            const readSince = await app.get(VmViewRepository).now();
            const stale = await readVcenter();
            // Recorded meanwhile by a reader of vCenter that read later (the live subscription).
            await app
              .get(UnitOfWork)
              .run((tx) =>
                app.get(VmRecordService).recordFigures(tx, row.uuid, { name: 'renamed-meanwhile' }),
              );
            const late = await pulls.reconcilePart(offering, stale, [], { readSince });
            const keptMeanwhile = await name();
            const fresh = await pulls.reconcilePart(offering, await readVcenter(), [], {
              readSince: await app.get(VmViewRepository).now(),
            });
            return { late, keptMeanwhile, fresh, after: await name() };
          },
          'vmPull',
        ),
      (r) => r.acquired,
      20_000,
      'the pull lock',
    );
    expect(run.acquired && run.result).toEqual({
      late: 0,
      keptMeanwhile: 'renamed-meanwhile',
      fresh: 1,
      after: row.name,
    });
  });

  it('records nothing when nothing changed across two pulls: no VmChanged, the VM row untouched', async () => {
    const pulls = adapter.app.get(VmPullService);
    // Whatever an earlier test left for the pull to record is recorded and relayed first.
    await pulls.pullOffering(offering);
    await sleep(2_000);
    const changesBefore = (await vmChanges()).length;
    const modified = async () => {
      const [row]: { modified: Date }[] = await adapter.runtime.dataSource.query(
        `SELECT "modified" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
        [vmUuid],
      );
      return row.modified.getTime();
    };
    const modifiedBefore = await modified();

    expect(await pulls.pullOffering(offering)).toBe(0);
    expect(await pulls.pullOffering(offering)).toBe(0);
    // The periodic pull (every 1.5 s) runs twice more meanwhile.
    await sleep(3_500);
    expect((await vmChanges()).length).toBe(changesBefore);
    expect(await modified()).toBe(modifiedBefore);
  });

  it('marks a VM deleted directly in vcsim ERRED with the reason, by the periodic pull and by the pull action', async () => {
    await powerOffVm(library.connection, ref);
    await destroyVm(library.connection, ref);
    const drift = await changeWhere(
      (e) =>
        e.operation === null && e.vm.error_message === 'The virtual machine no longer exists in vCenter.',
    );
    expect(drift.vm.state).toBe('ERRED');
    const pulled = dataOf(await request<VmOperationView>('vsphere.vm.pull'));
    expect(await ended(pulled.uuid)).toMatchObject({
      state: 'erred',
      error_message: 'The virtual machine no longer exists in vCenter.',
    });
    expect(await recorded()).toMatchObject({ state: 'ERRED' });
  });
});
