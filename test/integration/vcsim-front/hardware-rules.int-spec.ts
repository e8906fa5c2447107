import {
  addDisk,
  addNic,
  DeviceResolutionError,
  powerOffVm,
  powerOnVm,
  readNetworks,
  readVmDevices,
  reconfigureHardware,
  runTask,
  VimFault,
  vmObject,
  type MoRef,
  type NetworkInfo,
} from '@app/vim25';
import { makeNvmeOnlyVm } from '../../support/vcsim-front';
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

describe('vcsim front /sdk: hardware changes as vCenter 8 allows them', () => {
  let s: FrontSuite;
  let vmNetwork: NetworkInfo;
  let n = 0;
  const fresh = () => s.newVm(`hw-${++n}`);
  const hardware = async (vm: MoRef) => {
    const { numCPU, numCoresPerSocket, memoryMB, powerState } = await s.read(vm);
    return { numCPU, numCoresPerSocket, memoryMB, powerState };
  };

  beforeAll(async () => {
    s = await startFrontSuite();
    const network = (await readNetworks(s.ctx)).find((x) => x.name === 'VM Network');
    if (network === undefined) throw new Error('no VM Network');
    vmNetwork = network;
  });

  afterAll(async () => {
    await s?.stop();
  });

  it('refuses more CPUs on a running VM without CPU hot-add (CpuHotPlugNotSupported); the VM is unchanged', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    const before = await hardware(vm);
    const fault = await faultOf(reconfigureHardware(s.ctx, vm, { numCPUs: 2 }));
    expect(fault).toMatchObject({ operation: 'ReconfigVM_Task', faultType: 'CpuHotPlugNotSupported' });
    expect(fault.message).toBe('CPU hot plug is not supported for this virtual machine.');
    expect(await hardware(vm)).toEqual(before);
  });

  it('refuses a cores-per-socket change and fewer CPUs on a running VM with hot-add only; the VM is unchanged', async () => {
    const vm = await fresh();
    await runTask(s.ctx, (o) => vmObject(s.ctx, vm).reconfigure({ numCPUs: 2, cpuHotAddEnabled: true }, o));
    await powerOnVm(s.ctx, vm);
    const before = await hardware(vm);
    expect(before.numCPU).toBe(2);
    const cores = await faultOf(reconfigureHardware(s.ctx, vm, { numCoresPerSocket: 2 }));
    expect(cores.faultType).toBe('CpuHotPlugNotSupported');
    const fewer = await faultOf(reconfigureHardware(s.ctx, vm, { numCPUs: 1 }));
    expect(fewer.faultType).toBe('CpuHotPlugNotSupported');
    expect(await hardware(vm)).toEqual(before);
  });

  it('accepts more CPUs on a running VM with CPU hot-add enabled while it was off', async () => {
    const vm = await fresh();
    await runTask(s.ctx, (o) => vmObject(s.ctx, vm).reconfigure({ cpuHotAddEnabled: true }, o));
    await powerOnVm(s.ctx, vm);
    await reconfigureHardware(s.ctx, vm, { numCPUs: 4 });
    expect(await hardware(vm)).toMatchObject({ numCPU: 4, powerState: 'poweredOn' });
  });

  it('refuses switching CPU hot-add on while running (InvalidPowerState); the switch stays off', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    const fault = await faultOf(
      runTask(s.ctx, (o) => vmObject(s.ctx, vm).reconfigure({ numCPUs: 2, cpuHotAddEnabled: true }, o)),
    );
    expect(fault.faultType).toBe('InvalidPowerState');
    expect((await hardware(vm)).numCPU).toBe(1);
    // Still refused afterwards: the switch did not turn on.
    expect((await faultOf(reconfigureHardware(s.ctx, vm, { numCPUs: 2 }))).faultType).toBe(
      'CpuHotPlugNotSupported',
    );
  });

  it('refuses more memory without memory hot-add and less memory even with it (MemoryHotPlugNotSupported)', async () => {
    const plain = await fresh();
    await powerOnVm(s.ctx, plain);
    const before = await hardware(plain);
    expect((await faultOf(reconfigureHardware(s.ctx, plain, { memoryMB: 64 }))).faultType).toBe(
      'MemoryHotPlugNotSupported',
    );
    expect(await hardware(plain)).toEqual(before);

    const hotAdd = await fresh();
    await runTask(s.ctx, (o) =>
      vmObject(s.ctx, hotAdd).reconfigure({ memoryMB: 64, memoryHotAddEnabled: true }, o),
    );
    await powerOnVm(s.ctx, hotAdd);
    const fault = await faultOf(reconfigureHardware(s.ctx, hotAdd, { memoryMB: 32 }));
    expect(fault.faultType).toBe('MemoryHotPlugNotSupported');
    expect((await hardware(hotAdd)).memoryMB).toBe(64);
  });

  it('accepts more memory on a running VM with memory hot-add enabled while it was off', async () => {
    const vm = await fresh();
    await runTask(s.ctx, (o) => vmObject(s.ctx, vm).reconfigure({ memoryHotAddEnabled: true }, o));
    await powerOnVm(s.ctx, vm);
    await reconfigureHardware(s.ctx, vm, { memoryMB: 128 });
    expect(await hardware(vm)).toMatchObject({ memoryMB: 128, powerState: 'poweredOn' });
  });

  it('accepts any CPU, cores and memory change on a powered-off VM', async () => {
    const vm = await fresh();
    expect((await hardware(vm)).powerState).toBe('poweredOff');
    await reconfigureHardware(s.ctx, vm, { numCPUs: 4, numCoresPerSocket: 2, memoryMB: 16 });
    expect(await hardware(vm)).toEqual({
      numCPU: 4,
      numCoresPerSocket: 2,
      memoryMB: 16,
      powerState: 'poweredOff',
    });
  });

  it('leaves an adapter added to a running VM disconnected unless the client asked it connected', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    const asDefault = await addNic(s.ctx, vm, vmNetwork);
    const asked = await addNic(s.ctx, vm, vmNetwork, undefined, { connected: true });
    // Sent without `connectable`: vcsim itself connects it; the front leaves it as vCenter does.
    await runTask(s.ctx, (o) =>
      vmObject(s.ctx, vm).reconfigure(
        {
          deviceChange: [
            {
              operation: 'add',
              device: {
                _type: 'VirtualVmxnet3',
                key: -1,
                backing: { _type: 'VirtualEthernetCardNetworkBackingInfo', deviceName: 'VM Network' },
                addressType: 'generated',
              },
            },
          ],
        },
        o,
      ),
    );
    const nics = (await readVmDevices(s.ctx, vm)).filter((d) => d.kind === 'nic');
    const byKey = new Map(nics.map((d) => [d.key, d]));
    expect(byKey.get(asDefault.key)).toMatchObject({ connected: false });
    expect(byKey.get(asked.key)).toMatchObject({ connected: true });
    const bare = nics.filter(
      (d) => d.key !== asDefault.key && d.key !== asked.key && d.type === 'VirtualVmxnet3',
    );
    expect(bare).toHaveLength(1);
    expect(bare[0]).toMatchObject({ connected: false, raw: { connectable: { startConnected: 'true' } } });
  });

  it('adds a disk on an NVMe controller when the VM has no SCSI controller', async () => {
    const vm = await fresh();
    await makeNvmeOnlyVm(s.ctx, vm);
    const devices = await readVmDevices(s.ctx, vm);
    expect(devices.filter((d) => d.kind === 'scsi' || d.kind === 'disk')).toEqual([]);
    const nvme = devices.find((d) => d.kind === 'nvme');
    expect(nvme).toBeDefined();
    const first = await addDisk(s.ctx, vm, { capacityInKB: 1024 });
    const second = await addDisk(s.ctx, vm, { capacityInKB: 2048 });
    expect(first).toMatchObject({ controllerKey: nvme?.key, unitNumber: 0, capacityInKB: 1024 });
    expect(second).toMatchObject({ controllerKey: nvme?.key, unitNumber: 1, capacityInKB: 2048 });
  });

  it('refuses a disk on a VM with neither SCSI nor NVMe controller, naming SATA/IDE as unsupported; nothing is added', async () => {
    const vm = await fresh();
    await makeNvmeOnlyVm(s.ctx, vm);
    const nvme = (await readVmDevices(s.ctx, vm)).find((d) => d.kind === 'nvme');
    await runTask(s.ctx, (o) =>
      vmObject(s.ctx, vm).reconfigure({ deviceChange: [{ operation: 'remove', device: nvme?.raw }] }, o),
    );
    const err = await addDisk(s.ctx, vm, { capacityInKB: 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceResolutionError);
    expect((err as Error).message).toBe(
      'The virtual machine has no SCSI or NVMe controller with a free unit. Disks on SATA or IDE controllers are not supported.',
    );
    expect((await readVmDevices(s.ctx, vm)).filter((d) => d.kind === 'disk')).toEqual([]);
  });

  it('lets hardware change again after the VM is powered off', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    await faultOf(reconfigureHardware(s.ctx, vm, { numCPUs: 2 }));
    await powerOffVm(s.ctx, vm);
    await reconfigureHardware(s.ctx, vm, { numCPUs: 2 });
    expect((await hardware(vm)).numCPU).toBe(2);
  });
});
