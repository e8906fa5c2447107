import { randomUUID } from 'node:crypto';
import {
  addDisk,
  destroyVm,
  invoke,
  powerOffVm,
  powerOnVm,
  readVirtualMachine,
  readVirtualMachines,
  reconfigureHardware,
  removeNic,
  retrieveProperty,
  terminateSession,
  toUserSessions,
  waitForTask,
  asMoRef,
  type MoRef,
} from '@app/vim25';
import type { Envelope, HealthReport, VmChanged } from '@app/contracts';
import { readEnvelopes } from '../../../test/support/stream-reader';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import { eventually } from '../../../test/support/virtual-machines';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { HealthController } from '../src/controllers/health.controller';
import { VmPullService } from '../src/machines/services/vm-pull.service';
import { VmUpdateApplier } from '../src/machines/services/vm-update-applier.service';
import { VmWatchService } from '../src/machines/services/vm-watch.service';
import type { RemoteVm } from '../src/vcenter/ports/vm-provisioner.port';
import { credentialKey, startAdapter, type AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import { assignSuiteFolder, connectSuiteVcenter, orderVm } from './support/device-suite';
import type { RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(180_000);

/** No periodic pull at all: whatever is recorded here came from the subscription. */
const WATCH_ENV = {
  // One key for both instances of the takeover test: each must decrypt the stored password.
  CREDENTIALS_KEYS: credentialKey(),
  VSPHERE_DEPLOY_TIMEOUT_MS: '60000',
  VSPHERE_VM_PULL_INTERVAL_MS: '0',
  VSPHERE_VM_WATCH_MAX_WAIT_SECONDS: '3',
  VSPHERE_VM_WATCH_LEASE_CHECK_MS: '500',
  // Answers of two VM updates at most: the initial state comes in truncated parts.
  VSPHERE_VM_WATCH_MAX_OBJECT_UPDATES: '2',
};

describe('the live subscription to vCenter: changes made in vcsim recorded with VmChanged, no pull', () => {
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

  const recorded = async () => {
    const [row]: {
      runtime_state: string;
      state: string;
      error_message: string;
      cpu: number;
      name: string;
    }[] = await adapter.runtime.dataSource.query(
      `SELECT "runtime_state", "state", "error_message", "cpu", "name" FROM "vsphere"."virtual_machines"
         WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    return row;
  };

  const watchRow = async () => {
    const [row]: { state: string; holder: string; version: string; reason: string }[] =
      await adapter.runtime.dataSource.query(
        `SELECT "state", "holder", "version", "reason" FROM "vsphere"."vm_watch_states" WHERE "offering_uuid" = $1`,
        [offering],
      );
    return row;
  };

  const vmChanges = async (): Promise<VmChanged[]> =>
    (
      (await readEnvelopes(
        nats.jsm,
        nats.topology.streams.vsphere.name,
        nats.topology.subjects.vmChanged,
      )) as Envelope<VmChanged>[]
    )
      .filter((e) => e.correlationId === vmUuid)
      .map((e) => e.data);

  /** Waits for a VmChanged of no operation (drift) matching `match`, after the first `since`. */
  const driftWhere = (match: (e: VmChanged) => boolean, what: string, since = 0): Promise<VmChanged> =>
    eventually(
      async () => (await vmChanges()).slice(since).find((e) => e.operation === null && match(e)),
      (found) => found !== undefined,
      20_000,
      what,
    ) as Promise<VmChanged>;

  const metric = async (name: string, labels: string): Promise<number> => {
    const text = await adapter.runtime.metrics.registry.metrics();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_vm_watch',
      namespace: 'adaptervmwatch',
      vcsim: { args: ['-folder', '1'] },
      env: WATCH_ENV,
    }));
    await library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const suite = { sim, db, nats, adapter, client, library };
    const inv = await connectSuiteVcenter(suite, offering);
    const ordered = await orderVm(suite, {
      offering,
      customer,
      name: 'watch-1',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: inv.networks.get('DC0_DVPG0')!,
      folder: await assignSuiteFolder(suite, customer, inv),
      limits: { cpu: 2, ram: 2048 },
    });
    vmUuid = ordered.vmUuid;
    ref = ordered.ref;
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it('holds one subscription for the offering, live with a version, and reports it in health', async () => {
    const row = await eventually(watchRow, (r) => r?.state === 'live', 20_000, 'a live subscription');
    expect(row.version).not.toBe('');
    expect(adapter.app.get(VmWatchService).held()).toEqual([offering]);
    const health: HealthReport = await adapter.app.get(HealthController).health();
    expect(health.status).toBe('ok');
    expect(health.vcenter_subscriptions).toEqual([
      expect.objectContaining({ offering_uuid: offering, state: 'live', reason: '' }),
    ]);
  });

  it('reports a subscription that cannot run as down in health, and the adapter degraded', async () => {
    // VMs recorded for an offering whose vCenter credentials are gone: nothing to subscribe with.
    const orphan = randomUUID();
    await adapter.runtime.dataSource.query(
      `INSERT INTO "vsphere"."virtual_machines" ("uuid", "offering_uuid", "order_uuid", "resource_uuid",
         "customer_uuid", "project_uuid", "backend_uuid", "moref", "name", "cpu", "cores_per_socket", "ram",
         "disk", "runtime_state")
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'vm-orphan', 'orphan', 1, 1, 1024, 0, 'POWERED_ON')`,
      [randomUUID(), orphan, randomUUID(), randomUUID(), customer, randomUUID(), randomUUID()],
    );
    try {
      const health = await eventually(
        () => adapter.app.get(HealthController).health(),
        (h) =>
          h.vcenter_subscriptions?.some((s) => s.offering_uuid === orphan && s.state === 'down') === true,
        20_000,
        'the orphan subscription down',
      );
      expect(health.status).toBe('degraded');
      expect(health.vcenter_subscriptions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            offering_uuid: orphan,
            state: 'down',
            reason: 'the offering has no vCenter credentials',
          }),
          expect.objectContaining({ offering_uuid: offering, state: 'live' }),
        ]),
      );
    } finally {
      await adapter.runtime.dataSource.query(
        `DELETE FROM "vsphere"."virtual_machines" WHERE "offering_uuid" = $1`,
        [orphan],
      );
      await adapter.runtime.dataSource.query(
        `DELETE FROM "vsphere"."vm_watch_states" WHERE "offering_uuid" = $1`,
        [orphan],
      );
    }
    expect((await adapter.app.get(HealthController).health()).status).toBe('ok');
  });

  it('records a power-off, a resize, a new disk, a removed adapter and a rename made in vcsim, each with VmChanged', async () => {
    const reads = () => metric('vsphere_vm_watch_requests_total', 'method="RetrievePropertiesEx"');
    const readsBefore = await reads();
    await powerOffVm(library.connection, ref);
    const off = await driftWhere((e) => e.vm.runtime_state === 'POWERED_OFF', 'the power-off');
    expect(off.previousState).toBe('POWERED_ON');
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
    // The answer carried the power state: the VM was not read again.
    expect(await reads()).toBe(readsBefore);

    // vcsim reports a reconfigure as a change of the device list (the vCPUs set without an update
    // of their own): the VM is read, and the read has the new figure.
    await reconfigureHardware(library.connection, ref, { numCPUs: 4 });
    expect((await driftWhere((e) => e.vm.cores === 4, 'the resize')).vm.runtime_state).toBe('POWERED_OFF');

    const before = (await vmChanges()).at(-1)!.vm.disks.length;
    await addDisk(library.connection, ref, { capacityInKB: 2048 * 1024 });
    const disked = await driftWhere((e) => e.vm.disks.length === before + 1, 'the new disk');
    expect(disked.vm.disks.some((d) => d.size === 2048 && d.state === 'OK')).toBe(true);

    const info = (await readVirtualMachine(library.connection, ref))!;
    const nic = info.devices.find((d) => d.kind === 'nic')!;
    await removeNic(library.connection, ref, nic.key);
    expect((await driftWhere((e) => e.vm.ports.length === 0, 'the removed adapter')).vm.state).toBe('OK');

    const readsBeforeRename = await reads();
    const task = asMoRef(
      await invoke(library.connection.caller, 'Rename_Task', ref, { newName: 'watch-renamed' }),
    )!;
    await waitForTask(library.connection.caller, library.connection.content.propertyCollector, {
      ref: task,
      operation: 'Rename_Task',
    });
    await driftWhere((e) => e.vm.name === 'watch-renamed', 'the rename');
    expect(await reads()).toBe(readsBeforeRename);
    expect(await recorded()).toMatchObject({ name: 'watch-renamed', cpu: 4, state: 'OK' });
    expect(await metric('vsphere_vm_watch_changes_total', offering)).toBeGreaterThanOrEqual(5);
  });

  it('ignores VMs it does not manage: a change of one reads nothing from vCenter', async () => {
    const reads = () => metric('vsphere_vm_watch_requests_total', 'method="RetrievePropertiesEx"');
    const waits = () => metric('vsphere_vm_watch_requests_total', 'method="WaitForUpdatesEx"');
    const readsBefore = await reads();
    const waitsBefore = await waits();
    const other = (await readVirtualMachines(library.connection)).find((vm) => vm.name === 'DC0_H0_VM0')!;
    await powerOffVm(library.connection, other.ref);
    // The answer that named it came and went (a wait after it began), and no VM was read for it.
    await eventually(waits, (n) => n >= waitsBefore + 2, 20_000, 'two more waits');
    expect(await reads()).toBe(readsBefore);
    await powerOnVm(library.connection, other.ref);
  });

  it('ends the session mid-wait: a full comparison, then live again, and a change made meanwhile is recorded', async () => {
    const resyncs = () => metric('vsphere_vm_watch_resyncs_total', 'reason="session"');
    const before = await resyncs();
    const sessionManager = library.connection.content.sessionManager;
    const own = library.connection.session.userSession?.key;
    const list = toUserSessions(
      await retrieveProperty(
        library.connection.caller,
        library.connection.content.propertyCollector,
        sessionManager,
        'sessionList',
      ),
    );
    await terminateSession(
      library.connection.caller,
      sessionManager,
      list.map((s) => s.key).filter((key) => key !== own),
    );
    const since = (await vmChanges()).length;
    await powerOnVm(library.connection, ref);
    await driftWhere(
      (e) => e.vm.runtime_state === 'POWERED_ON',
      'the power-on after the session ended',
      since,
    );
    await eventually(resyncs, (n) => n > before, 20_000, 'a resync for the session');
    await eventually(watchRow, (r) => r?.state === 'live', 20_000, 'live again');
  });

  it('a session that times out mid-wait: NotAuthenticated at once, then a full comparison and live again by itself', async () => {
    const resyncs = () => metric('vsphere_vm_watch_resyncs_total', 'reason="session"');
    const before = await resyncs();
    await eventually(watchRow, (r) => r?.state === 'live', 20_000, 'live');
    expect(await sim.front.expireSoapSessions()).toBeGreaterThanOrEqual(1);
    await eventually(resyncs, (n) => n === before + 1, 20_000, 'one resync for the session');
    const since = (await vmChanges()).length;
    await powerOffVm(library.connection, ref);
    await driftWhere(
      (e) => e.vm.runtime_state === 'POWERED_OFF' && e.previousState === 'POWERED_ON',
      'the power-off after the session ended',
      since,
    );
    expect(await watchRow()).toMatchObject({ state: 'live' });
  });

  it('a version vCenter no longer accepts: one full comparison, which records what changed meanwhile, then live', async () => {
    const resyncs = () => metric('vsphere_vm_watch_resyncs_total', 'reason="version"');
    const before = await resyncs();
    const changes = (await vmChanges()).length;
    sim.front.forgetCollectorVersions();
    // The change and the refusal race: whichever comes first, the VM is recorded once.
    await powerOnVm(library.connection, ref);
    await eventually(resyncs, (n) => n === before + 1, 20_000, 'one resync for the version');
    await driftWhere((e) => e.vm.runtime_state === 'POWERED_ON', 'the power-on', changes);
    await eventually(watchRow, (r) => r?.state === 'live', 20_000, 'live again');
    // A later change as a marker: once it is there, a doubled power-on would be too.
    await powerOffVm(library.connection, ref);
    await driftWhere((e) => e.vm.runtime_state === 'POWERED_OFF', 'the marker', changes);
    expect((await vmChanges()).slice(changes).map((e) => e.vm.runtime_state)).toEqual([
      'POWERED_ON',
      'POWERED_OFF',
    ]);
    expect(await resyncs()).toBe(before + 1);
  });

  it('records a change made while an operation of the VM ran, once the operation has ended', async () => {
    const waits = () => metric('vsphere_vm_watch_requests_total', 'method="WaitForUpdatesEx"');
    const [vm]: { uuid: string }[] = await adapter.runtime.dataSource.query(
      `SELECT "uuid" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
      [vmUuid],
    );
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_OFF' });
    // An operation another instance runs, with a lease that outlasts the test: the VM is busy.
    const operation = randomUUID();
    await adapter.runtime.dataSource.query(
      `INSERT INTO "vsphere"."vm_operations" ("uuid", "vm_uuid", "kind", "state", "started", "claimed_by", "lease_until")
       VALUES ($1, $2, 'pull', 'running', now(), 'another-instance', now() + interval '1 hour')`,
      [operation, vm.uuid],
    );
    const since = performance.now();
    const waitsBefore = await waits();
    await powerOnVm(library.connection, ref);
    await eventually(
      () => Promise.resolve(sim.front.vcsimUpdateAnswers(since).some((a) => a.objects.includes(ref.value))),
      (named) => named,
      20_000,
      'an answer naming the VM',
    );
    // The answer applied (left to the operation) and the next wait sent.
    await eventually(waits, (n) => n >= waitsBefore + 2, 20_000, 'two more waits');
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_OFF' });
    const changes = (await vmChanges()).length;
    // The operation ends without reading the VM (as one whose read-back came before the change).
    await adapter.runtime.dataSource.query(
      `UPDATE "vsphere"."vm_operations" SET "state" = 'done', "finished" = now() WHERE "uuid" = $1`,
      [operation],
    );
    await driftWhere((e) => e.vm.runtime_state === 'POWERED_ON', 'the power-on made meanwhile', changes);
    expect(await recorded()).toMatchObject({ runtime_state: 'POWERED_ON', state: 'OK' });
    // Off again, as the next test expects it.
    const on = (await vmChanges()).length;
    await powerOffVm(library.connection, ref);
    await driftWhere((e) => e.vm.runtime_state === 'POWERED_OFF', 'the power-off', on);
  });

  it('is taken over by another instance within seconds when its holder stops', async () => {
    const second = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: WATCH_ENV,
    });
    try {
      expect(second.app.get(VmWatchService).held()).toEqual([]);
      const firstHolder = (await watchRow()).holder;
      await adapter.close();
      adapter = second;
      await eventually(
        watchRow,
        (r) => r?.state === 'live' && r.holder !== firstHolder,
        15_000,
        'the second instance live',
      );
      expect(second.app.get(VmWatchService).held()).toEqual([offering]);
      await powerOnVm(library.connection, ref);
      const since = (await vmChanges()).length;
      await powerOffVm(library.connection, ref);
      await destroyVm(library.connection, ref);
      const gone = await driftWhere(
        (e) => e.vm.error_message === 'The virtual machine no longer exists in vCenter.',
        'the deleted VM',
        since,
      );
      expect(gone.vm.state).toBe('ERRED');
    } finally {
      if (adapter !== second) await second.close();
    }
  });

  it('keeps a VM recorded gone gone when an older answer with figures for it comes after (no VmChanged)', async () => {
    // The VM of the test before is deleted and recorded gone. An answer vCenter sent before the
    // deletion, applied late (a pull found the VM gone first), carries figures for its moref.
    expect(await recorded()).toMatchObject({ state: 'ERRED' });
    const since = (await vmChanges()).length;
    const applied = await adapter.app
      .get(VmUpdateApplier)
      .apply(
        offering,
        [{ moref: ref.value, kind: 'patch', patch: { runtimeState: 'POWERED_ON', cpu: 3 } }],
        () => Promise.resolve([]),
      );
    expect(applied.changed).toBe(0);
    expect(await recorded()).toMatchObject({
      state: 'ERRED',
      error_message: 'The virtual machine no longer exists in vCenter.',
      cpu: 4,
    });
    expect((await vmChanges()).length).toBe(since);
  });

  it('keeps a VM gone when a pull finds it gone while an answer that names it is read, and takes back one recorded gone before the answer', async () => {
    expect(await recorded()).toMatchObject({ state: 'ERRED' });
    const applier = adapter.app.get(VmUpdateApplier);
    // The VM as vCenter answered it before its deletion.
    const before: RemoteVm = {
      moref: ref.value,
      uuid: vmUuid,
      name: 'watch-1',
      annotation: '',
      runtimeState: 'POWERED_OFF',
      cpu: 3,
      coresPerSocket: 1,
      ram: 2048,
      disks: [],
      nics: [],
      toolsState: 'NOT_RUNNING',
      toolsInstalled: false,
    };
    // An answer that arrives after the VM was recorded gone brings it back (a VM gone from the
    // view, then in it again), with its VmChanged.
    const since = (await vmChanges()).length;
    const back = await applier.apply(offering, [{ moref: ref.value, kind: 'whole', remote: before }], () =>
      Promise.resolve([]),
    );
    expect(back.changed).toBe(1);
    expect(await recorded()).toMatchObject({ state: 'OK', error_message: '', cpu: 3 });

    // An answer that names it arrives; while it is read, a pull finds it gone (it is, in vcsim).
    const read = await applier.apply(offering, [{ moref: ref.value, kind: 'read' }], async () => {
      await adapter.app.get(VmPullService).reconcilePart(offering, [], [vmUuid]);
      return [before];
    });
    expect(read.changed).toBe(0);
    expect(await recorded()).toMatchObject({
      state: 'ERRED',
      error_message: 'The virtual machine no longer exists in vCenter.',
    });
    // The return, then the pull's gone: the VmChanged of each, in that order.
    const changes = await eventually(
      async () => (await vmChanges()).slice(since),
      (found) => found.length >= 2,
      20_000,
      'the VmChanged of the return and of the gone',
    );
    expect(changes.map((e) => e.vm.state)).toEqual(['OK', 'ERRED']);
  });
});
