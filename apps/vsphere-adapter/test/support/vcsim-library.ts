import {
  addNic,
  cloneVm,
  connectRest,
  connectVim,
  createLocalLibrary,
  createVmTemplate,
  readClusters,
  readDatacenters,
  readDatastores,
  readNetworks,
  readVirtualMachines,
  readVmDevices,
  readVmFolders,
  removeDisk,
  removeNic,
  REST_PATHS,
  RestSessionRegistry,
  runTask,
  VimSessionRegistry,
  vmObject,
  type MoRef,
  type RestSession,
  type VimConnection,
} from '@app/vim25';
import type { VcsimWithFront } from '../../../../test/support/vcsim-front';

/** How to shape the VM a template is made from. */
export interface TemplateShape {
  /** Network adapters on "VM Network" (default 1). */
  nics?: number;
  /** Keep the stock VM's disk (default true). */
  disk?: boolean;
  /** vim25 guest id, e.g. `ubuntu64Guest` (default: the stock VM's). */
  guestId?: string;
  /** vCPUs and memory in MiB (default: the stock VM's, 1 and 32). */
  numCPUs?: number;
  memoryMB?: number;
}

/**
 * A Content Library of the test's own in vcsim (through the front, as a provider would publish
 * templates), and what vcsim holds, read independently of the adapter.
 */
export class VcsimLibrary {
  private constructor(
    private readonly soap: VimConnection,
    private readonly rest: RestSession,
    private readonly registries: { soap: VimSessionRegistry; rest: RestSessionRegistry },
    readonly libraryId: string,
  ) {}

  static async open(sim: VcsimWithFront): Promise<VcsimLibrary> {
    const credentials = { url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password };
    const registries = { soap: new VimSessionRegistry(), rest: new RestSessionRegistry() };
    const soap = await connectVim(credentials, {}, registries.soap);
    const rest = await connectRest(credentials, {}, registries.rest);
    const [datastore] = await readDatastores(soap);
    const libraryId = await createLocalLibrary(rest, {
      name: `lib-${process.pid}-${Date.now()}`,
      storage_backings: [{ type: 'DATASTORE', datastore_id: datastore.ref.value }],
    });
    return new VcsimLibrary(soap, rest, registries, libraryId);
  }

  /** Publishes a vm-template item named `name` from a clone of a stock VM shaped as asked; returns its id. */
  async publish(name: string, shape: TemplateShape = {}): Promise<string> {
    const ctx = this.soap;
    const stock = (await readVirtualMachines(ctx))
      .filter((vm) => !vm.template && /^DC0_/.test(vm.name))
      .sort((a, b) => a.name.localeCompare(b.name))[0];
    const [dc] = await readDatacenters(ctx);
    if (stock === undefined || dc.vmFolder === undefined) throw new Error('vcsim has no stock VM');
    const source = await cloneVm(ctx, stock.ref, {
      folder: dc.vmFolder,
      name: `src-${name}-${Date.now()}`,
      pool: stock.resourcePool,
    });
    if (source === undefined) throw new Error('the clone returned no VM');
    await this.shape(source, shape);
    return createVmTemplate(this.rest, {
      source_vm: source.value,
      name,
      library: this.libraryId,
      placement: { folder: dc.vmFolder.value },
    });
  }

  /** Deletes a library item (and the template VM vcsim keeps for it). */
  async deleteItem(itemId: string): Promise<void> {
    await this.rest.invoke(
      'DeleteLibraryItem',
      { method: 'DELETE', path: REST_PATHS.libraryItem(itemId) },
      () => undefined,
    );
  }

  /** What vcsim holds of each kind the adapter imports (uplink port groups are not for VMs). */
  async counts(): Promise<{ clusters: number; networks: number; datastores: number; folders: number }> {
    const ctx = this.soap;
    const [clusters, networks, datastores, folders] = await Promise.all([
      readClusters(ctx),
      readNetworks(ctx),
      readDatastores(ctx),
      readVmFolders(ctx),
    ]);
    return {
      clusters: clusters.length,
      networks: networks.filter((n) => !(n.kind === 'distributed' && n.uplink)).length,
      datastores: datastores.length,
      folders: folders.length,
    };
  }

  get connection(): VimConnection {
    return this.soap;
  }

  async close(): Promise<void> {
    await this.registries.rest.closeAll();
    await this.registries.soap.closeAll();
  }

  private async shape(vm: MoRef, shape: TemplateShape): Promise<void> {
    const ctx = this.soap;
    const devices = await readVmDevices(ctx, vm);
    for (const nic of devices.filter((d) => d.kind === 'nic')) await removeNic(ctx, vm, nic.key);
    const vmNetwork = (await readNetworks(ctx)).find((n) => n.name === 'VM Network');
    if (vmNetwork === undefined) throw new Error('vcsim has no "VM Network"');
    for (let i = 0; i < (shape.nics ?? 1); i++) await addNic(ctx, vm, vmNetwork);
    if (shape.disk === false)
      for (const disk of devices.filter((d) => d.kind === 'disk')) await removeDisk(ctx, vm, disk.key);
    if (shape.guestId !== undefined || shape.numCPUs !== undefined || shape.memoryMB !== undefined) {
      // VirtualMachineConfigSpec in WSDL order.
      const spec = { guestId: shape.guestId, numCPUs: shape.numCPUs, memoryMB: shape.memoryMB };
      await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o));
    }
  }
}
