import { readVirtualMachines, type MoRef, type VimConnection, type VmInfo } from '@app/vim25';
import { eventually, orderVm, type Disk, type Operation, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(240_000);

type OperationRow = { state: string; error_message: string; kind: string };

/**
 * Day-2 operations survive an adapter crash, on vcsim through the vCenter 8 front: the adapter is
 * SIGKILLed while vCenter holds an operation's task answer, and the operation is taken over once
 * its lease runs out. A repeatable operation ends done (its executor finds vCenter already there);
 * a disk or snapshot creation ends erred without a second one, and the pull it queues records the
 * one vCenter made, so the VM's records match vCenter.
 */
describe('VM operations survive an adapter crash: taken over after the lease, nothing lost or doubled', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmopfaults', {
      adapterEnv: { VSPHERE_OPERATION_LEASE_MS: '3000' },
    });
    vim = await market.vim();
    const { network, folder } = await market.vmPlacement();
    vm = await orderVm(market, 'fault-ops', { network, folder });
  });

  afterAll(async () => {
    market?.sim.front.delayVmTasks(0);
    await market?.stop();
  });

  const vmRef = (): MoRef => ({ type: 'VirtualMachine', value: vm.backend_id });
  const inVcsim = async (): Promise<VmInfo> =>
    (await readVirtualMachines(vim)).find((info) => info.instanceUuid === vm.uuid) as VmInfo;
  const operationRow = async (uuid: string): Promise<OperationRow> =>
    (
      await market.api.sql<OperationRow>(
        `SELECT "state", "error_message", "kind" FROM "vsphere"."vm_operations" WHERE "uuid" = $1`,
        [uuid],
      )
    )[0];
  const running = (uuid: string) =>
    eventually(
      () => operationRow(uuid),
      (row) => row.state === 'running',
      30_000,
      `${uuid} running`,
    );
  const ended = (uuid: string) =>
    eventually(
      () => operationRow(uuid),
      (row) => ['done', 'erred'].includes(row.state),
      60_000,
      `the end of ${uuid}`,
    );

  // Long enough for the SIGKILL to land while the answer is held (the kill follows the hold at once).
  const HOLD_MS = 4_000;
  // A task answer of the previous test still held by the front would make vCenter refuse the next
  // task on the VM (TaskInProgress): each test starts once the front has sent it.
  beforeEach(() => market.sim.front.untilVmTasksAnswered(vmRef()));

  /** From now on the front answers each VM task HOLD_MS after vCenter carried it out. */
  function holdTaskAnswers(): void {
    market.sim.front.delayVmTasks(HOLD_MS);
  }

  /** Waits for the operation to be mid-task (its answer held by the front), and crashes the adapter. */
  async function crashDuring(operationUuid: string): Promise<void> {
    await running(operationUuid);
    await market.sim.front.untilVmTaskHeld(vmRef());
    await market.restart('adapter', { signal: 'SIGKILL' });
    market.sim.front.delayVmTasks(0);
  }

  it('carries out a stop whose adapter died mid-task: done once, the VM off in vcsim and in REST', async () => {
    holdTaskAnswers();
    const stop = await market.api.ok<Operation>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/stop/`,
    );
    await crashDuring(stop.uuid);

    expect(await ended(stop.uuid)).toMatchObject({ state: 'done', error_message: '' });
    expect((await inVcsim()).powerState).toBe('poweredOff');
    const now = await eventually(
      () => market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`),
      (view) => view.state === 'OK',
      30_000,
      'the VM OK again',
    );
    expect(now.runtime_state).toBe('POWERED_OFF');
  });

  it('ends a disk creation whose adapter died mid-task as erred, makes no second disk, and records the one vCenter made', async () => {
    const disksBefore = (await inVcsim()).devices.filter((d) => d.kind === 'disk').length;
    holdTaskAnswers();
    const disk = await market.api.ok<Disk>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/create_disk/`,
      {
        size: 1024,
      },
    );
    const [{ uuid: operation }] = await market.api.sql<{ uuid: string }>(
      `SELECT "uuid" FROM "vsphere"."vm_operations" WHERE "disk_uuid" = $1`,
      [disk.uuid],
    );
    await crashDuring(operation);

    expect(await ended(operation)).toMatchObject({
      state: 'erred',
      error_message:
        'The adapter stopped during this operation; the virtual machine was pulled from vCenter.',
    });
    const vcsimDisks = (await inVcsim()).devices.filter((d) => d.kind === 'disk');
    expect(vcsimDisks).toHaveLength(disksBefore + 1);
    // The pull queued by the take-over records vCenter's disk; the requested row stays Erred, to be destroyed.
    const after = await eventually(
      () => market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`),
      (view) => view.disks.filter((d) => d.state === 'OK').length === disksBefore + 1 && view.state === 'OK',
      30_000,
      "vCenter's disks recorded",
    );
    expect(after.disks.find((d) => d.uuid === disk.uuid)).toMatchObject({ state: 'ERRED', backend_id: '' });
    expect(after.disk).toBe(vcsimDisks.reduce((sum, d) => sum + Math.floor(d.capacityInKB / 1024), 0));
    const destroyed = await market.api.call('member', 'DELETE', `/api/vmware-disks/${disk.uuid}/`);
    expect(destroyed.status).toBe(204);
    expect((await inVcsim()).devices.filter((d) => d.kind === 'disk')).toHaveLength(disksBefore + 1);
  });

  it('ends a snapshot creation whose adapter died mid-task as erred, takes no second snapshot, and records the one vCenter took', async () => {
    const before = (await inVcsim()).snapshot?.rootSnapshotList.length ?? 0;
    expect(before).toBe(0);
    holdTaskAnswers();
    const operation = await market.api.ok<Operation>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/create_snapshot/`,
      { name: 'mid-crash' },
    );
    await crashDuring(operation.uuid);

    expect(await ended(operation.uuid)).toMatchObject({
      state: 'erred',
      error_message:
        'The adapter stopped during this operation; the virtual machine was pulled from vCenter.',
    });
    expect((await inVcsim()).snapshot?.rootSnapshotList.map((t) => t.name)).toEqual(['mid-crash']);
    const after = await eventually(
      () =>
        market.api.ok<Vm & { snapshots: { name: string }[] }>(
          'member',
          'GET',
          `/api/vmware-virtual-machine/${vm.uuid}/`,
        ),
      (view) => view.state === 'OK' && view.snapshots.length === 1,
      30_000,
      "vCenter's snapshot recorded",
    );
    expect(after.snapshots.map((snapshot) => snapshot.name)).toEqual(['mid-crash']);
  });
});
