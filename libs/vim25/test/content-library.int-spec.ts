import {
  addNic,
  cloneVm,
  connectRest,
  connectVim,
  createLocalLibrary,
  createVmTemplate,
  deployVmTemplate,
  getLibrary,
  getLibraryItem,
  getVmTemplate,
  listLibraries,
  listLibraryItems,
  readClusters,
  readDatacenters,
  readDatastores,
  readNetworks,
  readVirtualMachine,
  readVirtualMachines,
  readVmDevices,
  removeNic,
  RestSessionRegistry,
  VapiError,
  VimSessionRegistry,
  VimTransportError,
  type RestSession,
  type VimConnection,
  type VmTemplateInfo,
} from '@app/vim25';
import { startVcsimWithFront, type VcsimWithFront } from '../../../test/support/vcsim-front';

const MISSING = '0d1e2f30-0000-4000-8000-000000000000';

describe('Content Library over /api through the vcsim front (TLS verified)', () => {
  let sim: VcsimWithFront;
  let soapRegistry: VimSessionRegistry;
  let restRegistry: RestSessionRegistry;
  let ctx: VimConnection;
  let rest: RestSession;
  let libraryId: string;
  let itemId: string;

  const credentials = () => ({
    url: sim.url,
    caPem: sim.caPem,
    username: sim.username,
    password: sim.password,
  });

  beforeAll(async () => {
    sim = await startVcsimWithFront({ username: 'svc', password: 's3cret' });
    soapRegistry = new VimSessionRegistry();
    restRegistry = new RestSessionRegistry();
    ctx = await connectVim(credentials(), {}, soapRegistry);
    rest = await connectRest(credentials(), {}, restRegistry);
    const [datastore] = await readDatastores(ctx);
    libraryId = await createLocalLibrary(rest, {
      name: `lib-${process.pid}`,
      storage_backings: [{ type: 'DATASTORE', datastore_id: datastore.ref.value }],
    });
    // The source: a powered-off clone of the stock DC0_H0_VM0 with its adapter moved from DC0_DVPG0
    // to "VM Network", so that the deploy below has a network to change.
    const stock = (await readVirtualMachines(ctx)).find((vm) => vm.name === 'DC0_H0_VM0');
    const [dc] = await readDatacenters(ctx);
    if (stock === undefined || dc.vmFolder === undefined) throw new Error('stock inventory missing');
    const source = await cloneVm(ctx, stock.ref, {
      folder: dc.vmFolder,
      name: 'tmpl-source',
      pool: stock.resourcePool,
    });
    if (source === undefined) throw new Error('clone returned no VM');
    const vmNetwork = (await readNetworks(ctx)).find((n) => n.name === 'VM Network');
    if (vmNetwork === undefined) throw new Error('no VM Network');
    for (const nic of (await readVmDevices(ctx, source)).filter((d) => d.kind === 'nic')) {
      await removeNic(ctx, source, nic.key);
    }
    await addNic(ctx, source, vmNetwork);
    itemId = await createVmTemplate(rest, {
      source_vm: source.value,
      name: 'tmpl-stock',
      library: libraryId,
      placement: { folder: dc.vmFolder?.value },
    });
  });

  afterAll(async () => {
    await restRegistry?.closeAll();
    await soapRegistry?.closeAll();
    await sim?.stop();
  });

  it('creates one REST session with the right credentials and refuses a wrong password with UNAUTHENTICATED', async () => {
    expect(rest.loginCount).toBe(1);
    const err = await connectRest(
      { ...credentials(), password: 'wrong' },
      {},
      new RestSessionRegistry(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VapiError);
    expect(err).toMatchObject({ operation: 'CreateSession', errorType: 'UNAUTHENTICATED', status: 401 });
    expect((err as VapiError).message).toBe('Authentication required.');
  });

  it('lists the library and its vm-template item', async () => {
    expect(await listLibraries(rest)).toContain(libraryId);
    expect(await getLibrary(rest, libraryId)).toMatchObject({
      id: libraryId,
      name: `lib-${process.pid}`,
      type: 'LOCAL',
    });
    expect(await listLibraryItems(rest, libraryId)).toEqual([itemId]);
    const item = await getLibraryItem(rest, itemId);
    expect(item).toMatchObject({
      id: itemId,
      library_id: libraryId,
      name: 'tmpl-stock',
      type: 'vm-template',
    });
    expect(Object.keys(item).some((k) => /^[A-Z]/.test(k))).toBe(false);
  });

  it("reads the template's CPU, memory, disks with capacity, NICs with their network and guest OS", async () => {
    const info = await getVmTemplate(rest, itemId);
    const stock = (await readVirtualMachines(ctx)).find((vm) => vm.name === 'tmpl-source');
    expect(info.cpu).toEqual({ count: stock?.numCPU, cores_per_socket: stock?.numCoresPerSocket ?? 1 });
    expect(info.memory).toEqual({ size_MiB: stock?.memoryMB });
    expect(info.guest_OS).toMatch(/^[A-Z0-9_]+$/);
    const disks = Object.values(info.disks);
    expect(disks.length).toBe(stock?.devices.filter((d) => d.kind === 'disk').length);
    expect(disks.every((d) => (d.capacity ?? 0) > 0 && d.disk_storage.datastore !== undefined)).toBe(true);
    const networks = await readNetworks(ctx);
    const vmNetwork = networks.find((n) => n.name === 'VM Network');
    expect(Object.values(info.nics)).toEqual([
      { backing_type: 'STANDARD_PORTGROUP', mac_type: 'GENERATED', network: vmNetwork?.ref.value },
    ]);
  });

  it('deploys with hardware and power-on into the cluster, as read back over SOAP', async () => {
    const info: VmTemplateInfo = await getVmTemplate(rest, itemId);
    const [cluster] = await readClusters(ctx);
    const [dc] = await readDatacenters(ctx);
    const [datastore] = await readDatastores(ctx);
    const dvpg = (await readNetworks(ctx)).find((n) => n.name === 'DC0_DVPG0');
    const nicKey = Object.keys(info.nics)[0];
    const vm = await deployVmTemplate(
      rest,
      itemId,
      {
        name: 'deployed-hw',
        placement: { folder: dc.vmFolder!.value, cluster: cluster.ref.value },
        disk_storage: { datastore: datastore.ref.value },
        vm_home_storage: { datastore: datastore.ref.value },
        hardware_customization: {
          cpu_update: { num_cpus: 2, num_cores_per_socket: 2 },
          memory_update: { memory: 3072 },
          nics: { [nicKey]: { network: dvpg?.ref.value } },
        },
        powered_on: true,
      },
      { timeoutMs: 120_000 },
    );
    expect(vm.type).toBe('VirtualMachine');
    // vCenter 8 powers on asynchronously after the deploy answered.
    let back = await readVirtualMachine(ctx, vm);
    for (let i = 0; i < 100 && back?.powerState !== 'poweredOn'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      back = await readVirtualMachine(ctx, vm);
    }
    expect(back).toMatchObject({
      name: 'deployed-hw',
      template: false,
      powerState: 'poweredOn',
      numCPU: 2,
      numCoresPerSocket: 2,
      memoryMB: 3072,
      resourcePool: cluster.resourcePool,
    });
    const nic = back?.devices.find((d) => d.key === Number(nicKey));
    expect(nic).toMatchObject({
      kind: 'nic',
      backing: { kind: 'distributed', portgroupKey: dvpg?.kind === 'distributed' ? dvpg.portgroupKey : '' },
    });
  });

  it('deploys powered off with the template hardware when nothing else is asked', async () => {
    const [cluster] = await readClusters(ctx);
    const [dc] = await readDatacenters(ctx);
    const vm = await deployVmTemplate(rest, itemId, {
      name: 'deployed-plain',
      placement: { folder: dc.vmFolder!.value, resource_pool: cluster.resourcePool?.value },
    });
    const info = await getVmTemplate(rest, itemId);
    expect(await readVirtualMachine(ctx, vm)).toMatchObject({
      template: false,
      powerState: 'poweredOff',
      numCPU: info.cpu.count,
      memoryMB: info.memory.size_MiB,
    });
  });

  it("answers an unknown item with a typed NOT_FOUND carrying vCenter's message", async () => {
    for (const call of [
      () => getLibraryItem(rest, MISSING),
      () => getVmTemplate(rest, MISSING),
      () =>
        deployVmTemplate(rest, MISSING, {
          name: 'x',
          placement: { folder: 'group-v1', resource_pool: 'resgroup-1' },
        }),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VapiError);
      expect(err).toMatchObject({ errorType: 'NOT_FOUND', status: 404 });
      expect((err as VapiError).message).toBe(`Library item with identifier ${MISSING} does not exist.`);
    }
    await expect(listLibraryItems(rest, MISSING)).rejects.toMatchObject({ errorType: 'NOT_FOUND' });
  });

  it('refuses a deploy naming a NIC the template lacks, or a placement without pool, cluster or host', async () => {
    const [cluster] = await readClusters(ctx);
    const [dc] = await readDatacenters(ctx);
    const folder = dc.vmFolder!.value;
    await expect(
      deployVmTemplate(rest, itemId, {
        name: 'bad-nic',
        placement: { folder, cluster: cluster.ref.value },
        hardware_customization: { nics: { '999999': { network: 'network-1' } } },
      }),
    ).rejects.toMatchObject({ errorType: 'INVALID_ARGUMENT', operation: 'DeployVmTemplate' });
    await expect(
      deployVmTemplate(rest, itemId, { name: 'nowhere', placement: { folder } }),
    ).rejects.toMatchObject({
      errorType: 'INVALID_ARGUMENT',
    });
    expect((await readVirtualMachines(ctx)).map((v) => v.name)).not.toContain('bad-nic');
  });

  it('refuses a deploy without placement.folder, or into an unknown folder, with 400 INVALID_ARGUMENT and creates nothing, as vCenter 8', async () => {
    const [cluster] = await readClusters(ctx);
    // The client type requires the folder; a caller that bypasses it gets vCenter's refusal.
    const spec = { name: 'no-folder', placement: { cluster: cluster.ref.value } } as unknown as Parameters<
      typeof deployVmTemplate
    >[2];
    const err = await deployVmTemplate(rest, itemId, spec).catch((e: unknown) => e);
    expect(err).toMatchObject({ errorType: 'INVALID_ARGUMENT', status: 400 });
    const unknown = { name: 'no-folder', placement: { folder: 'group-v999999', cluster: cluster.ref.value } };
    await expect(deployVmTemplate(rest, itemId, unknown)).rejects.toMatchObject({
      errorType: 'INVALID_ARGUMENT',
      status: 400,
    });
    expect((await readVirtualMachines(ctx)).map((v) => v.name)).not.toContain('no-folder');
  });

  it('renews a session expired on the server without the caller noticing', async () => {
    const before = rest.loginCount;
    expect(await sim.front.expireRestSessions()).toBeGreaterThan(0);
    await expect(listLibraries(rest)).resolves.toContain(libraryId);
    expect(rest.loginCount).toBe(before + 1);
  });

  it('shares one REST session among 30 concurrent calls', async () => {
    const created = sim.front.restSessionsCreated;
    const same = await connectRest(credentials(), {}, restRegistry);
    expect(same).toBe(rest);
    await Promise.all(Array.from({ length: 30 }, () => getLibraryItem(rest, itemId)));
    expect(sim.front.restSessionsCreated).toBe(created);
  });

  it('fails with a clear certificate error without the CA, and works with verifySsl: false', async () => {
    const noCa = { url: sim.url, username: sim.username, password: sim.password };
    const err = await connectRest(noCa, {}, new RestSessionRegistry()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VimTransportError);
    expect(err).toMatchObject({ kind: 'tls', operation: 'CreateSession' });
    expect((err as Error).message).toMatch(/TLS certificate is not trusted/);
    const unverified = new RestSessionRegistry();
    try {
      const session = await connectRest({ ...noCa, verifySsl: false }, {}, unverified);
      await expect(listLibraries(session)).resolves.toContain(libraryId);
    } finally {
      await unverified.closeAll();
    }
  });
});
