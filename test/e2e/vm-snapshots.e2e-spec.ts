import {
  createVmSnapshot,
  readVirtualMachines,
  removeVmSnapshot,
  type MoRef,
  type SnapshotTree,
  type VimConnection,
  type VmInfo,
} from '@app/vim25';
import type { Answer, Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import {
  operationEnd,
  orderVm,
  vmChanges,
  vmWatchers,
  type Operation,
  type Vm,
} from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Snapshot = Json & {
  uuid: string;
  url: string;
  name: string;
  description: string;
  backend_id: string;
  vm_uuid: string;
  parent_uuid: string | null;
  children: string[];
  current: boolean;
  memory: boolean;
  quiesced: boolean;
  warnings: string[];
};
type SnapshotVm = Vm & { snapshots: Snapshot[]; consolidation_needed: boolean };

/** A tree of names as vCenter keeps it: `{name: [children]}`, a leaf as its bare name. */
type NameTree = (string | Record<string, NameTree>)[];
const namesOf = (trees: readonly SnapshotTree[]): NameTree =>
  trees.map((t) => (t.children.length === 0 ? t.name : { [t.name]: namesOf(t.children) }));

/**
 * Snapshots of a VM an order made, on vcsim behind the vCenter 8 front, through REST and SSE only,
 * each operation followed by a look at the VM's snapshot tree in vcsim: create (with memory while
 * on; refused without Tools for quiesce, powered off for memory), revert after a resize (the old
 * CPU and RAM come back, off for a snapshot without memory), the offering's limits refused with
 * their messages, delete one (children kept), drift both ways, delete all. The tests run in order
 * on one VM: each leaves it as the next expects.
 */
describe('VM snapshots end to end: REST, the adapter, vcsim and SSE', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: SnapshotVm;
  let project: SseClient;
  let outsider: SseClient;

  beforeAll(async () => {
    // The periodic drift pull every second: a snapshot taken in vCenter comes without any request.
    market = await VsphereMarketplace.start('vmsnap', {
      adapterEnv: { VSPHERE_VM_PULL_INTERVAL_MS: '1000' },
    });
    vim = await market.vim();
    vm = (await orderVm(market, 'e2e-snap-1', await market.vmPlacement())) as SnapshotVm;
    ({ project, outsider } = await vmWatchers(market));
  });

  afterAll(async () => {
    project?.close();
    outsider?.close();
    await market?.stop();
  });

  const vmPath = (suffix = '') => `/api/vmware-virtual-machine/${vm.uuid}/${suffix}`;
  const ref = (): MoRef => ({ type: 'VirtualMachine', value: vm.backend_id });
  const getVm = () => market.api.ok<SnapshotVm>('member', 'GET', vmPath());
  const snapshots = async () =>
    (await market.api.ok<Snapshot[]>('member', 'GET', vmPath('snapshots/'))) ?? [];
  const byName = async (name: string) => (await snapshots()).find((s) => s.name === name) as Snapshot;

  async function inVcsim(): Promise<VmInfo> {
    const info = (await readVirtualMachines(vim)).find((candidate) => candidate.instanceUuid === vm.uuid);
    if (!info) throw new Error(`${vm.name} is not in vcsim`);
    return info;
  }
  const treeInVcsim = async () => namesOf((await inVcsim()).snapshot?.rootSnapshotList ?? []);

  function accepted(answer: Answer<Operation>, operation: string): Operation {
    expect({ status: answer.status, operation: answer.body.operation }).toEqual({ status: 202, operation });
    return answer.body;
  }

  /** The VM as the VmChanged that ended the operation shows it; the operation must have ended done. */
  async function done(operation: Operation): Promise<SnapshotVm> {
    const ended = await operationEnd(project, operation);
    expect(ended.operation).toMatchObject({ uuid: operation.uuid, state: 'done', error_message: '' });
    return ended as unknown as SnapshotVm;
  }

  const create = (body: Json) =>
    market.api.call<Operation>('member', 'POST', vmPath('create_snapshot/'), body);
  const refused = async (body: Json, status: number, expected: Json) => {
    const before = await treeInVcsim();
    const answer = await create(body);
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body: expected });
    expect(await treeInVcsim()).toEqual(before);
  };
  const setLimits = (attributes: Json) =>
    market.api.ok(
      'staff',
      'POST',
      `/api/marketplace-provider-offerings/${market.offering.uuid}/update_integration/`,
      { service_attributes: attributes },
    );

  it("shows the offering's snapshot limits with its other maximums: 3 snapshots, 72 h, memory allowed", async () => {
    const limits = await market.api.ok<Json>('member', 'GET', `/api/vmware-limits/${market.offering.uuid}/`);
    expect(limits).toMatchObject({ max_snapshots: 3, snapshot_max_age_hours: 72, memory_snapshots: true });
    expect(vm).toMatchObject({ runtime_state: 'POWERED_ON', snapshots: [], consolidation_needed: false });
  });

  it('refuses a quiesced snapshot without VMware Tools running (409 with the reason), vcsim unchanged', async () => {
    await refused({ name: 'quiet', quiesce: true }, 409, {
      detail: 'A quiesced snapshot needs VMware Tools running in the virtual machine.',
    });
  });

  it('refuses a snapshot without a name (400 naming name)', async () => {
    const answer = await create({ description: 'nameless' });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { name: ['This field is required.'] },
    });
  });

  it('takes a snapshot with memory of the running VM: 202, done on SSE, in vcsim with its memory, in REST as the current one', async () => {
    const operation = accepted(
      await create({ name: 'running', description: 'with memory', memory: true }),
      'create_snapshot',
    );
    const ended = await done(operation);
    expect(ended.snapshots.map((s) => s.name)).toEqual(['running']);
    expect(await treeInVcsim()).toEqual(['running']);
    const [tree] = (await inVcsim()).snapshot?.rootSnapshotList ?? [];
    expect(tree).toMatchObject({ description: 'with memory', state: 'poweredOn' });
    const snapshot = await byName('running');
    expect(snapshot).toMatchObject({
      url: `${market.api.base}/api/vmware-snapshots/${snapshot.uuid}/`,
      backend_id: tree.snapshot.value,
      vm_uuid: vm.uuid,
      parent_uuid: null,
      children: [],
      current: true,
      memory: true,
      quiesced: false,
      warnings: [],
    });
    expect(await market.api.ok<Snapshot>('member', 'GET', `/api/vmware-snapshots/${snapshot.uuid}/`)).toEqual(
      snapshot,
    );
  });

  it('refuses a snapshot with memory of the powered-off VM (409 with the reason), vcsim unchanged', async () => {
    await done(accepted(await market.api.call<Operation>('member', 'POST', vmPath('stop/')), 'stop'));
    await refused({ name: 'no memory to save', memory: true }, 409, {
      detail: 'A snapshot with memory needs a POWERED_ON virtual machine; it is POWERED_OFF.',
    });
  });

  it('reverts a resize: snapshot, resize, revert, and the VM has its old CPU and RAM in vcsim and REST, powered off', async () => {
    const before = await getVm();
    await done(accepted(await create({ name: 'before-resize' }), 'create_snapshot'));
    expect(await treeInVcsim()).toEqual([{ running: ['before-resize'] }]);
    const saved = await byName('before-resize');
    expect(saved).toMatchObject({
      parent_uuid: (await byName('running')).uuid,
      current: true,
      memory: false,
    });

    const resize = accepted(
      await market.api.call<Operation>('member', 'PATCH', vmPath(), { cores: 4, ram: 4096 }),
      'update',
    );
    await done(resize);
    expect(await inVcsim()).toMatchObject({ numCPU: 4, memoryMB: 4096 });
    await done(accepted(await market.api.call<Operation>('member', 'POST', vmPath('start/')), 'start'));

    const revert = accepted(
      await market.api.call<Operation>('member', 'POST', `/api/vmware-snapshots/${saved.uuid}/revert/`),
      'revert_snapshot',
    );
    expect(revert).toMatchObject({ snapshot_uuid: saved.uuid });
    const ended = await done(revert);
    expect(await inVcsim()).toMatchObject({
      numCPU: before.cores,
      memoryMB: before.ram,
      powerState: 'poweredOff',
    });
    expect((await inVcsim()).snapshot?.currentSnapshot?.value).toBe(saved.backend_id);
    expect(ended).toMatchObject({ cores: before.cores, ram: before.ram, runtime_state: 'POWERED_OFF' });
    expect(await getVm()).toMatchObject({
      cores: before.cores,
      ram: before.ram,
      runtime_state: 'POWERED_OFF',
    });
  });

  it("refuses a fourth snapshot under the offering's maximum of three (409 with the limit), vcsim unchanged", async () => {
    await done(accepted(await create({ name: 'third' }), 'create_snapshot'));
    expect(await treeInVcsim()).toEqual([{ running: [{ 'before-resize': ['third'] }] }]);
    await refused({ name: 'fourth' }, 409, {
      detail: 'This virtual machine has 3 snapshots, the most this offering allows; delete one first.',
    });
  });

  it('refuses memory snapshots once the offering allows none (400 naming memory)', async () => {
    await setLimits({ memory_snapshots: false, max_snapshots: 4 });
    await done(accepted(await market.api.call<Operation>('member', 'POST', vmPath('start/')), 'start'));
    await refused({ name: 'memory', memory: true }, 400, {
      memory: ['This offering does not allow snapshots with memory.'],
    });
    await setLimits({ memory_snapshots: true, max_snapshots: 3 });
  });

  it('deletes one snapshot: its child stays, moved up to its parent, in vcsim and in REST', async () => {
    const middle = await byName('before-resize');
    const operation = accepted(
      await market.api.call<Operation>('member', 'DELETE', `/api/vmware-snapshots/${middle.uuid}/`),
      'delete_snapshot',
    );
    await done(operation);
    expect(await treeInVcsim()).toEqual([{ running: ['third'] }]);
    const running = await byName('running');
    expect(running.children).toEqual([(await byName('third')).uuid]);
    expect((await byName('third')).parent_uuid).toBe(running.uuid);
    expect((await market.api.call('member', 'GET', `/api/vmware-snapshots/${middle.uuid}/`)).status).toBe(
      404,
    );
  });

  it('finds a snapshot taken in vCenter itself with the periodic pull (VmChanged with no operation), and one removed there gone after a pull', async () => {
    const made = await createVmSnapshot(vim, ref(), {
      name: 'made-in-vcenter',
      description: 'by hand',
      memory: false,
      quiesce: false,
    });
    const found = () =>
      vmChanges(project, vm.uuid).find(
        (c) =>
          c.operation === null &&
          ((c as unknown as SnapshotVm).snapshots ?? []).some((s) => s.name === 'made-in-vcenter'),
      );
    await project.waitFor(() => found() !== undefined, 30_000, 'the periodic pull finding the snapshot');
    expect(await byName('made-in-vcenter')).toMatchObject({
      backend_id: made?.value,
      description: 'by hand',
      current: true,
      parent_uuid: (await byName('third')).uuid,
    });

    await removeVmSnapshot(vim, made as MoRef);
    const ended = await done(
      accepted(await market.api.call<Operation>('member', 'POST', vmPath('pull/')), 'pull'),
    );
    expect(ended.snapshots.map((s) => s.name)).toEqual(['running', 'third']);
  });

  it('deletes all snapshots: none left in vcsim or REST, and only the project saw the VM change', async () => {
    const operation = accepted(
      await market.api.call<Operation>('member', 'POST', vmPath('remove_all_snapshots/')),
      'delete_all_snapshots',
    );
    const ended = await done(operation);
    expect(ended.snapshots).toEqual([]);
    expect((await inVcsim()).snapshot).toBeUndefined();
    expect(await snapshots()).toEqual([]);
    const list = await market.api.ok<Snapshot[]>(
      'member',
      'GET',
      `/api/vmware-snapshots/?vm_uuid=${vm.uuid}`,
    );
    expect(list).toEqual([]);
    expect(vmChanges(outsider, vm.uuid)).toEqual([]);
  });

  it('runs a snapshot and a resize asked at once one after the other, both done (never TaskInProgress)', async () => {
    await done(accepted(await market.api.call<Operation>('member', 'POST', vmPath('stop/')), 'stop'));
    // vCenter's answer to each task held a while: two tasks on the VM at once would overlap.
    market.sim.front.delayVmTasks(500);
    try {
      const [snapshot, resize] = await Promise.all([
        create({ name: 'beside-a-resize' }),
        market.api.call<Operation>('member', 'PATCH', vmPath(), { cores: 1 }),
      ]);
      const operations = [accepted(snapshot, 'create_snapshot'), accepted(resize, 'update')];
      for (const operation of operations) await done(operation);
      const rows = await market.api.sql<{ started: Date; finished: Date }>(
        `SELECT "started", "finished" FROM "vsphere"."vm_operations" WHERE "uuid" = ANY($1::uuid[]) ORDER BY "started"`,
        [operations.map((o) => o.uuid)],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0].finished.getTime()).toBeLessThanOrEqual(rows[1].started.getTime());
      expect(await treeInVcsim()).toEqual(['beside-a-resize']);
      expect((await inVcsim()).numCPU).toBe(1);
    } finally {
      market.sim.front.delayVmTasks(0);
    }
  });
});
