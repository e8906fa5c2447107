import {
  addNic,
  destroyVm,
  markVmAsTemplate,
  powerOffVm,
  powerOnVm,
  readNetworks,
  readVmDevices,
  rebootGuestOs,
  resetVm,
  runTask,
  suspendVm,
  VimFault,
  vmObject,
  type MoRef,
  type NetworkInfo,
  type SoapObject,
} from '@app/vim25';
import { setGuestToolsStatus } from '../../support/vcsim-front';
import { MAX_NICS_PER_VM } from '../../support/vcsim-front/vm-precondition-rules';
import { startFrontSuite, type FrontSuite } from './front-vms';

/** The fault a call raised (it must raise one). */
async function faultOf(work: Promise<unknown>): Promise<VimFault> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VimFault)) throw new Error(`expected a VimFault, got ${String(err)}`);
  return err;
}

describe('vcsim front /sdk: power preconditions and device counts as vCenter 8 has them', () => {
  let s: FrontSuite;
  let vmNetwork: NetworkInfo;
  let n = 0;
  const fresh = () => s.newVm(`pd-${++n}`);
  const power = async (vm: MoRef) => (await s.read(vm)).powerState;
  const nics = async (vm: MoRef) => (await readVmDevices(s.ctx, vm)).filter((d) => d.kind === 'nic');

  beforeAll(async () => {
    s = await startFrontSuite();
    const network = (await readNetworks(s.ctx)).find((x) => x.name === 'VM Network');
    if (network === undefined) throw new Error('no VM Network');
    vmNetwork = network;
  });

  afterAll(async () => {
    await s?.stop();
  });

  /** A VM holding exactly `count` network adapters. */
  async function vmWithNics(count: number): Promise<MoRef> {
    const vm = await fresh();
    while ((await nics(vm)).length < count) await addNic(s.ctx, vm, vmNetwork);
    expect(await nics(vm)).toHaveLength(count);
    return vm;
  }

  describe('refusals vcsim lacks, reproduced by the front', () => {
    it('refuses SuspendVM_Task of a powered-off VM (InvalidPowerState); the VM stays powered off', async () => {
      const vm = await fresh();
      expect(await power(vm)).toBe('poweredOff');
      const fault = await faultOf(suspendVm(s.ctx, vm));
      expect(fault).toMatchObject({
        operation: 'SuspendVM_Task',
        faultType: 'InvalidPowerState',
        detail: { requestedState: 'poweredOn', existingState: 'poweredOff' },
      });
      expect(await power(vm)).toBe('poweredOff');
    });

    it('refuses ResetVM_Task of a suspended VM (InvalidPowerState); the VM stays suspended', async () => {
      const vm = await fresh();
      await powerOnVm(s.ctx, vm);
      await suspendVm(s.ctx, vm);
      const fault = await faultOf(resetVm(s.ctx, vm));
      expect(fault).toMatchObject({
        operation: 'ResetVM_Task',
        faultType: 'InvalidPowerState',
        detail: { requestedState: 'poweredOn', existingState: 'suspended' },
      });
      expect(await power(vm)).toBe('suspended');
    });

    it(`refuses an adapter beyond the ${MAX_NICS_PER_VM}th (TooManyDevices); the VM keeps ${MAX_NICS_PER_VM}`, async () => {
      const vm = await vmWithNics(MAX_NICS_PER_VM);
      const fault = await faultOf(addNic(s.ctx, vm, vmNetwork));
      expect(fault).toMatchObject({ operation: 'ReconfigVM_Task', faultType: 'TooManyDevices' });
      expect(await nics(vm)).toHaveLength(MAX_NICS_PER_VM);
    });

    it('counts every adapter one spec adds, and those it removes: two added at nine refused, one swapped at ten taken', async () => {
      const vm = await vmWithNics(MAX_NICS_PER_VM - 1);
      const device = (key: number) => ({
        _type: 'VirtualVmxnet3',
        key,
        backing: { _type: 'VirtualEthernetCardNetworkBackingInfo', deviceName: vmNetwork.name },
        connectable: { startConnected: true, allowGuestControl: true, connected: false },
        addressType: 'generated',
      });
      const reconfigure = (deviceChange: SoapObject[]) =>
        runTask(s.ctx, (o) => vmObject(s.ctx, vm).reconfigure({ deviceChange }, o));
      const two = [
        { operation: 'add', device: device(-1) },
        { operation: 'add', device: device(-2) },
      ];
      expect((await faultOf(reconfigure(two))).faultType).toBe('TooManyDevices');
      expect(await nics(vm)).toHaveLength(MAX_NICS_PER_VM - 1);

      await addNic(s.ctx, vm, vmNetwork);
      const [oldest] = await nics(vm);
      await reconfigure([
        { operation: 'remove', device: oldest.raw },
        { operation: 'add', device: device(-1) },
      ]);
      const after = await nics(vm);
      expect(after).toHaveLength(MAX_NICS_PER_VM);
      expect(after.map((d) => d.key)).not.toContain(oldest.key);
    });
  });

  describe('guest operations while a task runs on the VM', () => {
    afterEach(() => s.sim.front.delayVmTasks(0));

    it('refuses RebootGuest while a task runs on the VM (TaskInProgress naming it); once it answered, vcsim is asked', async () => {
      const vm = await fresh();
      await powerOnVm(s.ctx, vm);
      await setGuestToolsStatus(s.ctx, vm, 'guestToolsRunning');
      s.sim.front.delayVmTasks(2_000);
      const running = resetVm(s.ctx, vm);
      await s.sim.front.untilVmTaskHeld(vm);
      const fault = await faultOf(rebootGuestOs(s.ctx, vm));
      expect(fault).toMatchObject({
        operation: 'RebootGuest',
        faultType: 'TaskInProgress',
        detail: { task: { type: 'Task' } },
      });
      await running;
      // vcsim has no RebootGuest: with no task in flight the call reaches it.
      expect((await faultOf(rebootGuestOs(s.ctx, vm))).faultType).toBe('MethodNotFound');
      expect(await power(vm)).toBe('poweredOn');
    });
  });

  // vcsim refuses these itself, as vCenter does; pinned so a vcsim that stopped would be seen.
  describe('refusals vcsim has itself, through the front', () => {
    it('refuses PowerOnVM_Task of a powered-on VM and PowerOffVM_Task of a powered-off one (InvalidPowerState)', async () => {
      const vm = await fresh();
      expect((await faultOf(powerOffVm(s.ctx, vm))).faultType).toBe('InvalidPowerState');
      expect(await power(vm)).toBe('poweredOff');
      await powerOnVm(s.ctx, vm);
      expect((await faultOf(powerOnVm(s.ctx, vm))).faultType).toBe('InvalidPowerState');
      expect(await power(vm)).toBe('poweredOn');
    });

    it('refuses Destroy_Task and MarkAsTemplate of a powered-on VM (InvalidPowerState); the VM stays, a VM', async () => {
      const vm = await fresh();
      await powerOnVm(s.ctx, vm);
      expect((await faultOf(destroyVm(s.ctx, vm))).faultType).toBe('InvalidPowerState');
      expect((await faultOf(markVmAsTemplate(s.ctx, vm))).faultType).toBe('InvalidPowerState');
      expect(await s.read(vm)).toMatchObject({ powerState: 'poweredOn', template: false });
    });
  });
});
