import {
  addNic,
  connectVim,
  readClusters,
  readDatacenters,
  readDatastores,
  readHosts,
  readNetworks,
  readResourcePools,
  readVirtualMachines,
  readVmDevices,
  readVmFolders,
  removeNic,
  VimSessionRegistry,
  type VimConnection,
} from '@app/vim25';
import { startVcsim, type VcsimInstance } from '../../../test/support/vcsim';

describe('inventory readers against vcsim (default inventory, TLS verified)', () => {
  let sim: VcsimInstance;
  let registry: VimSessionRegistry;
  let ctx: VimConnection;

  beforeAll(async () => {
    sim = await startVcsim();
    registry = new VimSessionRegistry();
    ctx = await connectVim(
      { url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password },
      {},
      registry,
    );
  });

  afterAll(async () => {
    await registry?.closeAll();
    await sim?.stop();
  });

  it('reads the datacenter DC0 with its VM folder', async () => {
    const dcs = await readDatacenters(ctx);
    expect(dcs.map((d) => d.name)).toEqual(['DC0']);
    expect(dcs[0].vmFolder?.type).toBe('Folder');
  });

  it('reads cluster DC0_C0 with its root resource pool and three hosts', async () => {
    const clusters = await readClusters(ctx);
    expect(clusters.map((c) => c.name)).toEqual(['DC0_C0']);
    expect(clusters[0].resourcePool?.type).toBe('ResourcePool');
    expect(clusters[0].hosts).toHaveLength(3);
    const pools = await readResourcePools(ctx);
    const root = pools.find((p) => p.ref.value === clusters[0].resourcePool?.value);
    expect(root?.name).toBe('Resources');
    expect(root?.owner).toEqual(clusters[0].ref);
  });

  it('reads four hosts: three in the cluster and the standalone DC0_H0', async () => {
    const hosts = await readHosts(ctx);
    expect(hosts.map((h) => h.name).sort()).toEqual(['DC0_C0_H0', 'DC0_C0_H1', 'DC0_C0_H2', 'DC0_H0']);
    expect(hosts.every((h) => h.connectionState === 'connected')).toBe(true);
  });

  it('reads datastore LocalDS_0 with its type, capacity and free space', async () => {
    const stores = await readDatastores(ctx);
    expect(stores).toHaveLength(1);
    expect(stores[0]).toMatchObject({ name: 'LocalDS_0', type: 'OTHER', accessible: true });
    expect(stores[0].capacity).toBeGreaterThan(0);
    expect(stores[0].freeSpace).toBeGreaterThan(0);
    expect(stores[0].freeSpace).toBeLessThanOrEqual(stores[0].capacity);
  });

  it('reads "VM Network" as a standard port group and DC0_DVPG0 with its switch uuid', async () => {
    const networks = await readNetworks(ctx);
    const vmNetwork = networks.find((n) => n.name === 'VM Network');
    expect(vmNetwork).toMatchObject({ kind: 'standard', ref: { type: 'Network' } });
    const dvpg = networks.find((n) => n.name === 'DC0_DVPG0');
    expect(dvpg).toMatchObject({
      kind: 'distributed',
      ref: { type: 'DistributedVirtualPortgroup' },
      uplink: false,
    });
    expect(dvpg?.kind === 'distributed' && dvpg.switchUuid).toMatch(/^[0-9a-f-]{36}$/);
    // vcsim marks no uplink port group (no SYSTEM/DVS.UPLINKPG tag, no config.uplinkPortgroup).
  });

  it('reads the VM folder of DC0', async () => {
    const folders = await readVmFolders(ctx);
    expect(folders.map((f) => f.name)).toContain('vm');
  });

  it('reads each inventory type in one property-collector round trip', async () => {
    const operations: string[] = [];
    const counting: VimConnection = {
      ...ctx,
      caller: {
        call: (operation, envelope, options) => {
          operations.push(operation);
          return ctx.caller.call(operation, envelope, options);
        },
      },
    };
    const readers = [
      readDatacenters,
      readClusters,
      readHosts,
      readResourcePools,
      readDatastores,
      readNetworks,
      readVmFolders,
      readVirtualMachines,
    ];
    for (const reader of readers) {
      operations.length = 0;
      await reader(counting);
      expect(operations).toEqual(['CreateContainerView', 'RetrievePropertiesEx', 'DestroyView']);
    }
  });

  it('reads the four default VMs with power state, hardware, devices, tools and template flag', async () => {
    const vms = await readVirtualMachines(ctx);
    expect(vms.map((v) => v.name).sort()).toEqual([
      'DC0_C0_RP0_VM0',
      'DC0_C0_RP0_VM1',
      'DC0_H0_VM0',
      'DC0_H0_VM1',
    ]);
    for (const vm of vms) {
      expect(vm).toMatchObject({
        powerState: 'poweredOn',
        numCPU: 1,
        numCoresPerSocket: 1,
        memoryMB: 32,
        template: false,
        toolsRunningStatus: 'guestToolsNotRunning',
      });
      expect(vm.devices.filter((d) => d.kind === 'disk')).toHaveLength(1);
      expect(vm.devices.filter((d) => d.kind === 'nic')).toHaveLength(1);
      expect(vm.devices.filter((d) => d.kind === 'scsi')).toHaveLength(1);
    }
  });
});

describe('opaque (NSX) networks against vcsim started with -nsx 1', () => {
  let sim: VcsimInstance;
  let registry: VimSessionRegistry;
  let ctx: VimConnection;

  beforeAll(async () => {
    sim = await startVcsim({ args: ['-nsx', '1'] });
    registry = new VimSessionRegistry();
    ctx = await connectVim(
      { url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password },
      {},
      registry,
    );
  });

  afterAll(async () => {
    await registry?.closeAll();
    await sim?.stop();
  });

  it('reads the opaque network with its id and type, beside the other kinds', async () => {
    const networks = await readNetworks(ctx);
    const opaque = networks.filter((n) => n.kind === 'opaque');
    expect(opaque).toHaveLength(1);
    expect(opaque[0]).toMatchObject({ ref: { type: 'OpaqueNetwork' } });
    expect(opaque[0].kind === 'opaque' && opaque[0].opaqueNetworkId).toBeTruthy();
    expect(networks.some((n) => n.kind === 'standard')).toBe(true);
    expect(networks.some((n) => n.kind === 'distributed')).toBe(true);
  });

  it('adds a vmxnet3 adapter on the opaque network and removes it', async () => {
    const opaque = (await readNetworks(ctx)).find((n) => n.kind === 'opaque');
    const vm = (await readVirtualMachines(ctx))[0];
    if (!opaque || opaque.kind !== 'opaque') throw new Error('no opaque network');
    const nic = await addNic(ctx, vm.ref, opaque);
    expect(nic.backing).toEqual({
      kind: 'opaque',
      opaqueNetworkId: opaque.opaqueNetworkId,
      opaqueNetworkType: opaque.opaqueNetworkType,
    });
    await removeNic(ctx, vm.ref, nic.key);
    expect((await readVmDevices(ctx, vm.ref)).some((d) => d.key === nic.key)).toBe(false);
  });
});
