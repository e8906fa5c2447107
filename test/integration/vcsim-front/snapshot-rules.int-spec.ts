import {
  createVmSnapshot,
  powerOffVm,
  powerOnVm,
  readVirtualMachine,
  reconfigureHardware,
  removeVmSnapshot,
  revertToVmSnapshot,
  VimFault,
  type MoRef,
  type SnapshotTree,
} from '@app/vim25';
import { SNAPSHOT_CHAIN_LIMIT } from '../../support/vcsim-front/snapshot-rules';
import { startFrontSuite, type FrontSuite } from './front-vms';

async function faultOf(work: Promise<unknown>): Promise<VimFault> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VimFault)) throw new Error(`expected a VimFault, got ${String(err)}`);
  return err;
}

const names = (trees: readonly SnapshotTree[]): unknown[] =>
  trees.map((t) => (t.children.length === 0 ? t.name : { [t.name]: names(t.children) }));

describe('vcsim front /sdk: snapshots as vCenter 8 keeps them', () => {
  let s: FrontSuite;
  let n = 0;
  const fresh = () => s.newVm(`snap-${++n}`);
  const snap = async (vm: MoRef, name: string, memory = false) => {
    const ref = await createVmSnapshot(s.ctx, vm, { name, description: '', memory, quiesce: false });
    if (ref === undefined) throw new Error('no snapshot returned');
    return ref;
  };
  const tree = async (vm: MoRef) => (await readVirtualMachine(s.ctx, vm))?.snapshot;

  beforeAll(async () => {
    s = await startFrontSuite();
  });

  afterEach(() => {
    s.sim.front.delayVmTasks(0);
  });

  afterAll(async () => {
    await s?.stop();
  });

  it(`refuses a snapshot one level past a chain of ${SNAPSHOT_CHAIN_LIMIT} (TooManySnapshotLevels); the tree keeps ${SNAPSHOT_CHAIN_LIMIT}`, async () => {
    const vm = await fresh();
    for (let i = 1; i <= SNAPSHOT_CHAIN_LIMIT; i++) await snap(vm, `level-${i}`);
    const fault = await faultOf(snap(vm, 'one-too-many'));
    expect(fault).toMatchObject({ operation: 'CreateSnapshot_Task', faultType: 'TooManySnapshotLevels' });
    let depth = 0;
    for (let level = (await tree(vm))?.rootSnapshotList ?? []; level.length > 0; level = level[0].children) {
      expect(level).toHaveLength(1);
      depth++;
    }
    expect(depth).toBe(SNAPSHOT_CHAIN_LIMIT);
  }, 60_000);

  it('reverts the hardware and leaves the VM off for a snapshot without memory (vcsim only moves currentSnapshot)', async () => {
    const vm = await fresh();
    const before = await s.read(vm);
    const ref = await snap(vm, 'before-resize');
    await reconfigureHardware(s.ctx, vm, { numCPUs: 2, memoryMB: 64 });
    await powerOnVm(s.ctx, vm);
    await revertToVmSnapshot(s.ctx, ref);
    expect(await s.read(vm)).toMatchObject({
      powerState: 'poweredOff',
      numCPU: before.numCPU,
      memoryMB: before.memoryMB,
    });
    expect((await tree(vm))?.currentSnapshot?.value).toBe(ref.value);
  });

  it('reverts to a snapshot with memory running', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    const ref = await snap(vm, 'running', true);
    expect((await tree(vm))?.rootSnapshotList[0].state).toBe('poweredOn');
    await powerOffVm(s.ctx, vm);
    await revertToVmSnapshot(s.ctx, ref);
    expect((await s.read(vm)).powerState).toBe('poweredOn');
  });

  it('answers a revert or removal while another task runs on the VM TaskInProgress; nothing changes', async () => {
    const vm = await fresh();
    const ref = await snap(vm, 'base');
    s.sim.front.delayVmTasks(2_000);
    const first = reconfigureHardware(s.ctx, vm, { numCPUs: 2 });
    await s.sim.front.untilVmTaskHeld(vm);
    expect(await faultOf(revertToVmSnapshot(s.ctx, ref))).toMatchObject({
      operation: 'RevertToSnapshot_Task',
      faultType: 'TaskInProgress',
    });
    expect((await faultOf(removeVmSnapshot(s.ctx, ref))).faultType).toBe('TaskInProgress');
    await first;
    expect((await s.read(vm)).numCPU).toBe(2);
    expect(names((await tree(vm))?.rootSnapshotList ?? [])).toEqual(['base']);
  });

  it('removes one snapshot and keeps its children, moved up to its parent', async () => {
    const vm = await fresh();
    await snap(vm, 'a');
    const b = await snap(vm, 'b');
    await snap(vm, 'c');
    expect(names((await tree(vm))?.rootSnapshotList ?? [])).toEqual([{ a: [{ b: ['c'] }] }]);
    await removeVmSnapshot(s.ctx, b);
    expect(names((await tree(vm))?.rootSnapshotList ?? [])).toEqual([{ a: ['c'] }]);
  });
});
