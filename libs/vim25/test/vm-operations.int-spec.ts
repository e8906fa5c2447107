import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  acquireWebMksTicket,
  addDisk,
  addNic,
  cloneVm,
  connectVim,
  destroyVm,
  extendDisk,
  markTemplateAsVm,
  markVmAsTemplate,
  powerOffVm,
  powerOnVm,
  readDatastores,
  readNetworks,
  readResourcePools,
  readVirtualMachine,
  readVirtualMachines,
  rebootGuestOs,
  reconfigureHardware,
  removeDisk,
  removeNic,
  shutdownGuestOs,
  suspendVm,
  VimFault,
  VimSessionRegistry,
  vmrcUrl,
  type MoRef,
  type VimConnection,
  type VmInfo,
} from '@app/vim25';
import { startVcsim, type VcsimInstance } from '../../../test/support/vcsim';

describe('VM operations against vcsim', () => {
  let sim: VcsimInstance;
  let registry: VimSessionRegistry;
  let ctx: VimConnection;
  let vms: VmInfo[];

  beforeAll(async () => {
    sim = await startVcsim();
    registry = new VimSessionRegistry();
    ctx = await connectVim(
      { url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password },
      {},
      registry,
    );
    vms = await readVirtualMachines(ctx);
  });

  afterAll(async () => {
    await registry?.closeAll();
    await sim?.stop();
  });

  const vmNamed = (name: string): MoRef => {
    const vm = vms.find((v) => v.name === name);
    if (!vm) throw new Error(`no VM ${name}`);
    return vm.ref;
  };
  const read = async (vm: MoRef): Promise<VmInfo> => {
    const info = await readVirtualMachine(ctx, vm);
    if (!info) throw new Error(`VM ${vm.value} vanished`);
    return info;
  };

  it('cycles power start → suspend → start → stop, checking the runtime state each step', async () => {
    const vm = vmNamed('DC0_H0_VM0');
    await powerOffVm(ctx, vm);
    expect((await read(vm)).powerState).toBe('poweredOff');
    await powerOnVm(ctx, vm);
    expect((await read(vm)).powerState).toBe('poweredOn');
    await suspendVm(ctx, vm);
    expect((await read(vm)).powerState).toBe('suspended');
    await powerOnVm(ctx, vm);
    expect((await read(vm)).powerState).toBe('poweredOn');
    await powerOffVm(ctx, vm);
    expect((await read(vm)).powerState).toBe('poweredOff');
  });

  it('surfaces a failed task (power off a powered-off VM) as VimFault InvalidPowerState', async () => {
    const vm = vmNamed('DC0_H0_VM0');
    const error = await powerOffVm(ctx, vm).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VimFault);
    expect(error).toMatchObject({ operation: 'PowerOffVM_Task', faultType: 'InvalidPowerState' });
    expect((error as VimFault).message).not.toMatch(/object Object/);
    expect((error as VimFault).detail).toMatchObject({ existingState: 'poweredOff' });
  });

  it('reconfigures CPU, cores per socket and memory and reads them back', async () => {
    const vm = vmNamed('DC0_H0_VM1');
    await reconfigureHardware(ctx, vm, { numCPUs: 4, numCoresPerSocket: 2, memoryMB: 2048 });
    expect(await read(vm)).toMatchObject({ numCPU: 4, numCoresPerSocket: 2, memoryMB: 2048 });
  });

  it('adds a 1 GiB thin disk on the SCSI controller, extends it to 2 GiB, removes it', async () => {
    const vm = vmNamed('DC0_H0_VM1');
    const disk = await addDisk(ctx, vm, { capacityInKB: 1024 * 1024 });
    expect(disk).toMatchObject({ kind: 'disk', capacityInKB: 1024 * 1024, unitNumber: 1 });
    const controller = (await read(vm)).devices.find((d) => d.kind === 'scsi');
    expect(disk.controllerKey).toBe(controller?.key);
    const grown = await extendDisk(ctx, vm, disk.key, 2 * 1024 * 1024);
    expect(grown.capacityInKB).toBe(2 * 1024 * 1024);
    const devices = (await read(vm)).devices;
    expect(devices.filter((d) => d.kind === 'disk')).toHaveLength(2); // the VM is intact
    // vcsim keeps a datastore as a local directory: the .vmdk must be gone after the remove.
    const dsUrl = (await readDatastores(ctx))[0].url ?? '';
    const file = join(dsUrl, (disk.fileName ?? '').replace(/^\[[^\]]*\] ?/, ''));
    expect(existsSync(file)).toBe(true);
    await removeDisk(ctx, vm, disk.key);
    expect((await read(vm)).devices.some((d) => d.key === disk.key)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('adds vmxnet3 adapters on DC0_DVPG0 and on "VM Network", then removes them', async () => {
    const vm = vmNamed('DC0_H0_VM1');
    const networks = await readNetworks(ctx);
    const dvpg = networks.find((n) => n.name === 'DC0_DVPG0');
    const standard = networks.find((n) => n.name === 'VM Network');
    if (!dvpg || !standard) throw new Error('default networks missing');
    const onDvpg = await addNic(ctx, vm, dvpg);
    expect(onDvpg).toMatchObject({ kind: 'nic', type: 'VirtualVmxnet3', backing: { kind: 'distributed' } });
    expect(onDvpg.backing.kind === 'distributed' && onDvpg.backing.portgroupKey).toBe(
      dvpg.kind === 'distributed' && dvpg.portgroupKey,
    );
    const onStandard = await addNic(ctx, vm, standard);
    expect(onStandard).toMatchObject({
      kind: 'nic',
      type: 'VirtualVmxnet3',
      backing: { kind: 'standard', network: standard.ref },
    });
    await removeNic(ctx, vm, onDvpg.key);
    await removeNic(ctx, vm, onStandard.key);
    const keys = (await read(vm)).devices.map((d) => d.key);
    expect(keys).not.toContain(onDvpg.key);
    expect(keys).not.toContain(onStandard.key);
  });

  it('builds a VMRC console URL with no ticket that keeps the non-default port', () => {
    const vm = vmNamed('DC0_H0_VM1');
    const port = new URL(sim.url).port;
    expect(vmrcUrl(ctx.serverAddress, vm)).toBe(`vmrc://127.0.0.1:${port}/?moid=${vm.value}`);
  });

  it('reports a missing webmks ticket (vcsim) and RebootGuest as typed MethodNotFound faults', async () => {
    const vm = vmNamed('DC0_H0_VM1');
    await expect(acquireWebMksTicket(ctx, vm)).rejects.toMatchObject({
      faultType: 'MethodNotFound',
      operation: 'AcquireTicket',
    });
    await expect(rebootGuestOs(ctx, vm)).rejects.toMatchObject({
      faultType: 'MethodNotFound',
      operation: 'RebootGuest',
    });
  });

  it('shuts the guest down, and refuses it when already off with InvalidPowerState', async () => {
    const vm = vmNamed('DC0_C0_RP0_VM0');
    await shutdownGuestOs(ctx, vm);
    expect((await read(vm)).powerState).toBe('poweredOff');
    await expect(shutdownGuestOs(ctx, vm)).rejects.toMatchObject({
      faultType: 'InvalidPowerState',
      operation: 'ShutdownGuest',
    });
  });

  it('marks a VM as template and back as a virtual machine', async () => {
    const vm = vmNamed('DC0_C0_RP0_VM0');
    await markVmAsTemplate(ctx, vm);
    expect((await read(vm)).template).toBe(true);
    const pool = (await readResourcePools(ctx)).find((p) => p.name === 'Resources');
    if (!pool) throw new Error('no root pool');
    await markTemplateAsVm(ctx, vm, pool.ref);
    expect((await read(vm)).template).toBe(false);
  });

  it('clones a VM and destroys the clone', async () => {
    const source = await read(vmNamed('DC0_H0_VM1'));
    const clone = await cloneVm(ctx, source.ref, {
      folder: source.parent ?? source.ref,
      name: 'vim25-clone',
      pool: source.resourcePool,
    });
    if (!clone) throw new Error('no clone reference');
    expect((await read(clone)).name).toBe('vim25-clone');
    await destroyVm(ctx, clone);
    expect(await readVirtualMachine(ctx, clone)).toBeUndefined();
  });

  it('destroys a VM', async () => {
    const vm = vmNamed('DC0_C0_RP0_VM1');
    await powerOffVm(ctx, vm);
    await destroyVm(ctx, vm);
    expect(await readVirtualMachine(ctx, vm)).toBeUndefined();
    expect((await readVirtualMachines(ctx)).map((v) => v.name)).not.toContain('DC0_C0_RP0_VM1');
  });
});
