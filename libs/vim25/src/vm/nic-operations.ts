import type { SoapObject } from '../soap/soap-encoder';
import { readVmDevices } from '../inventory/vm-readers';
import type { NetworkInfo } from '../types/inventory';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import type { NicBacking, VirtualEthernetCard } from '../types/virtual-machine';
import { DeviceResolutionError, findCreatedDevice } from './device-diff';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** Where to attach a new adapter: a network as the inventory readers return it. */
export type NicTarget =
  | { readonly kind: 'standard'; readonly ref: MoRef; readonly name: string }
  | { readonly kind: 'distributed'; readonly portgroupKey: string; readonly switchUuid?: string }
  | { readonly kind: 'opaque'; readonly opaqueNetworkId: string; readonly opaqueNetworkType: string };

/** The vim25 backing object for `target` (WSDL order). Pure. */
export function nicBackingSpec(target: NicTarget | NetworkInfo): SoapObject {
  switch (target.kind) {
    case 'standard':
      return { _type: 'VirtualEthernetCardNetworkBackingInfo', deviceName: target.name, network: target.ref };
    case 'distributed':
      if (!target.switchUuid)
        throw new DeviceResolutionError(`distributed port group ${target.portgroupKey} has no switch uuid`);
      return {
        _type: 'VirtualEthernetCardDistributedVirtualPortBackingInfo',
        port: { switchUuid: target.switchUuid, portgroupKey: target.portgroupKey },
      };
    case 'opaque':
      return {
        _type: 'VirtualEthernetCardOpaqueNetworkBackingInfo',
        opaqueNetworkId: target.opaqueNetworkId,
        opaqueNetworkType: target.opaqueNetworkType,
      };
  }
}

/** Whether an adapter's backing points at `target`. Pure. */
export function backingMatches(backing: NicBacking, target: NicTarget | NetworkInfo): boolean {
  if (backing.kind === 'standard' && target.kind === 'standard')
    return backing.network?.value === target.ref.value || backing.deviceName === target.name;
  if (backing.kind === 'distributed' && target.kind === 'distributed')
    return backing.portgroupKey === target.portgroupKey;
  if (backing.kind === 'opaque' && target.kind === 'opaque')
    return backing.opaqueNetworkId === target.opaqueNetworkId;
  return false;
}

/** How a new adapter is connected. */
export interface NewNic {
  /**
   * Connected at once (`connectable.connected`); default false. vCenter applies it on a running VM
   * only: send true there, or the adapter stays disconnected until the next power-on.
   */
  readonly connected?: boolean;
}

/**
 * Adds a VirtualVmxnet3 adapter (generated MAC, connected at power-on, connected now as `nic`
 * says) on a standard, distributed or opaque network (ReconfigVM_Task) and returns it, found by
 * key diff and backing. Cost: 2 device reads + the task.
 */
export async function addNic(
  ctx: VimContext,
  vm: MoRef,
  target: NicTarget | NetworkInfo,
  options?: VmOperationOptions,
  nic?: NewNic,
): Promise<VirtualEthernetCard> {
  const before = await readVmDevices(ctx, vm, options);
  const device: SoapObject = {
    _type: 'VirtualVmxnet3',
    key: -1,
    backing: nicBackingSpec(target),
    connectable: { startConnected: true, allowGuestControl: true, connected: nic?.connected ?? false },
    addressType: 'generated',
  };
  const spec = { deviceChange: [{ operation: 'add', device }] };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
  const after = await readVmDevices(ctx, vm, options);
  return findCreatedDevice(before, after, 'nic', (d) => backingMatches(d.backing, target));
}

/** Removes the adapter with key `nicKey` (ReconfigVM_Task remove, whole device sent). Cost: 1 read + the task. */
export async function removeNic(
  ctx: VimContext,
  vm: MoRef,
  nicKey: number,
  options?: VmOperationOptions,
): Promise<void> {
  const nic = (await readVmDevices(ctx, vm, options)).find((d) => d.kind === 'nic' && d.key === nicKey);
  if (nic === undefined) throw new DeviceResolutionError(`the VM has no network adapter with key ${nicKey}`);
  const spec = { deviceChange: [{ operation: 'remove', device: nic.raw }] };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
}
