import {
  destroyVm,
  markTemplateAsVm,
  nicBackingSpec,
  readVmDevices,
  runTask,
  vmObject,
  type MoRef,
  type NetworkInfo,
  type SoapObject,
  type VimConnection,
} from '@app/vim25';

/** What vCenter applies to a VM deployed from a vm-template item and vcsim does not. */
export interface DeployFixups {
  /** The resource pool the VM was placed in (vcsim leaves it a template without one). */
  readonly pool: MoRef;
  readonly host?: MoRef;
  readonly numCPUs?: number;
  readonly numCoresPerSocket?: number;
  readonly memoryMB?: number;
  /** Template NIC key → the network to attach it to. */
  readonly nics: ReadonlyMap<number, NetworkInfo>;
  /** The deploy spec's `description`: vCenter makes it the VM's annotation (vcsim drops it). */
  readonly annotation?: string;
}

/**
 * Makes a VM vcsim deployed look as vCenter 8 leaves it: MarkAsVirtualMachine into the placement's
 * pool, one ReconfigVM_Task with the requested CPU, cores per socket, memory and NIC networks
 * (each adapter sent back whole with the new backing) and the description as the annotation. On a
 * failure the half-made VM is destroyed (vCenter fails the whole deploy) and the fault re-thrown.
 */
export async function applyDeployFixups(ctx: VimConnection, vm: MoRef, fix: DeployFixups): Promise<void> {
  try {
    await markTemplateAsVm(ctx, vm, fix.pool, fix.host);
    const deviceChange: SoapObject[] = [];
    if (fix.nics.size > 0) {
      for (const device of await readVmDevices(ctx, vm)) {
        const network = fix.nics.get(device.key);
        if (device.kind !== 'nic' || network === undefined) continue;
        deviceChange.push({ operation: 'edit', device: { ...device.raw, backing: nicBackingSpec(network) } });
      }
    }
    // VirtualMachineConfigSpec in WSDL order: annotation comes before the hardware.
    const spec: SoapObject = {
      annotation: fix.annotation,
      numCPUs: fix.numCPUs,
      numCoresPerSocket: fix.numCoresPerSocket,
      memoryMB: fix.memoryMB,
      deviceChange: deviceChange.length > 0 ? deviceChange : undefined,
    };
    if (Object.values(spec).some((v) => v !== undefined)) {
      await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), { timeoutMs: 60_000 });
    }
  } catch (err) {
    await destroyVm(ctx, vm, { timeoutMs: 60_000 }).catch(() => undefined);
    throw err;
  }
}
