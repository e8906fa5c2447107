import {
  cloneVm,
  connectVim,
  readDatacenters,
  readVirtualMachine,
  readVirtualMachines,
  VimSessionRegistry,
  type MoRef,
  type VimConnection,
  type VmInfo,
} from '@app/vim25';
import { startVcsimWithFront, type VcsimWithFront } from '../../support/vcsim-front';

/** vcsim behind its front, a client session through the front, and fresh VMs to test on. */
export interface FrontSuite {
  readonly sim: VcsimWithFront;
  /** The project's client, connected through the front (as the adapter is). */
  readonly ctx: VimConnection;
  /** A new powered-off clone of the stock DC0_H0_VM0 (1 CPU, 1 core per socket, 32 MB). */
  newVm(name: string): Promise<MoRef>;
  /** The VM as vcsim holds it now. */
  read(vm: MoRef): Promise<VmInfo>;
  stop(): Promise<void>;
}

export async function startFrontSuite(): Promise<FrontSuite> {
  const sim = await startVcsimWithFront({ username: 'svc', password: 's3cret' });
  const registry = new VimSessionRegistry();
  const ctx = await connectVim(
    { url: sim.url, caPem: sim.caPem, username: sim.username, password: sim.password },
    {},
    registry,
  );
  const stock = (await readVirtualMachines(ctx)).find((vm) => vm.name === 'DC0_H0_VM0');
  const [dc] = await readDatacenters(ctx);
  if (stock === undefined || dc.vmFolder === undefined) throw new Error('stock inventory missing');
  const folder = dc.vmFolder;
  return {
    sim,
    ctx,
    newVm: async (name) => {
      const vm = await cloneVm(ctx, stock.ref, { folder, name, pool: stock.resourcePool });
      if (vm === undefined) throw new Error('clone returned no VM');
      return vm;
    },
    read: async (vm) => {
      const info = await readVirtualMachine(ctx, vm);
      if (info === undefined) throw new Error(`${vm.value} is gone`);
      return info;
    },
    stop: async () => {
      await registry.closeAll();
      await sim.stop();
    },
  };
}
