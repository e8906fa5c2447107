import { VimFault } from '../soap/vim-errors';
import type { XmlValue } from '../xml/decoder';
import { asArray, asBoolean, asMoRef, asNumber, asString } from '../xml/values';
import { retrieveFromView, retrieveFromViewPages } from '../property/container-view';
import { retrieveAll, retrieveObject, type RetrieveOptions } from '../property/retrieve';
import type { VmInfo } from '../types/inventory';
import type { MoRef } from '../types/mo-ref';
import type { ObjectContent } from '../types/property';
import type { VimContext } from '../types/vim-context';
import type { ToolsRunningStatus, VirtualMachinePowerState, VmDevice } from '../types/virtual-machine';
import { toVmDevice } from './device-mapper';
import { toSnapshotInfo } from './snapshot-tree';

/** The VirtualMachine property paths the readers ask for (explicit, never `all`). */
export const VM_PATHS = [
  'name',
  'runtime.powerState',
  'runtime.host',
  'config.hardware.numCPU',
  'config.hardware.numCoresPerSocket',
  'config.hardware.memoryMB',
  'config.hardware.device',
  'config.template',
  'config.uuid',
  'config.instanceUuid',
  'guest.toolsRunningStatus',
  'config.tools.toolsInstallType',
  'guest.guestState',
  'resourcePool',
  'parent',
  'snapshot',
  'runtime.consolidationNeeded',
] as const;

/** Maps a decoded `ArrayOfVirtualDevice`. Pure. */
export function toVmDevices(value: XmlValue | undefined): VmDevice[] {
  return asArray(value).map(toVmDevice);
}

/** Maps an object's VM_PATHS (a read, or a property-collector update's changes) to a VmInfo. Pure. */
export function toVmInfo(o: Pick<ObjectContent, 'obj' | 'props'>): VmInfo {
  const p = (path: (typeof VM_PATHS)[number]): XmlValue | undefined => o.props.get(path);
  return {
    ref: o.obj,
    name: asString(p('name')) ?? '',
    powerState: (asString(p('runtime.powerState')) ?? 'poweredOff') as VirtualMachinePowerState,
    numCPU: asNumber(p('config.hardware.numCPU')),
    numCoresPerSocket: asNumber(p('config.hardware.numCoresPerSocket')),
    memoryMB: asNumber(p('config.hardware.memoryMB')),
    devices: toVmDevices(p('config.hardware.device')),
    toolsRunningStatus: asString(p('guest.toolsRunningStatus')) as ToolsRunningStatus | undefined,
    guestState: asString(p('guest.guestState')),
    toolsInstallType: asString(p('config.tools.toolsInstallType')),
    template: asBoolean(p('config.template')) ?? false,
    uuid: asString(p('config.uuid')),
    instanceUuid: asString(p('config.instanceUuid')),
    host: asMoRef(p('runtime.host')),
    resourcePool: asMoRef(p('resourcePool')),
    parent: asMoRef(p('parent')),
    snapshot: toSnapshotInfo(p('snapshot')),
    consolidationNeeded: asBoolean(p('runtime.consolidationNeeded')) ?? false,
  };
}

/** Every VM and template with VM_PATHS. One property-collector round trip (+ view create/destroy). */
export async function readVirtualMachines(ctx: VimContext, options?: RetrieveOptions): Promise<VmInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    { types: ['VirtualMachine'], propSet: [{ type: 'VirtualMachine', pathSet: [...VM_PATHS] }] },
    options,
  );
  return objects.map(toVmInfo);
}

/**
 * Every VM and template with VM_PATHS, page by page (`options.pageSize` VMs at most a page), read
 * as the caller asks for the next: a reader of 10,000 VMs holds one page. One round trip per page
 * (+ view create/destroy).
 */
export async function* readVirtualMachinePages(
  ctx: VimContext,
  options?: RetrieveOptions,
): AsyncGenerator<VmInfo[], void, undefined> {
  for await (const page of retrieveFromViewPages(
    ctx.caller,
    ctx.content,
    { types: ['VirtualMachine'], propSet: [{ type: 'VirtualMachine', pathSet: [...VM_PATHS] }] },
    options,
  ))
    yield page.map(toVmInfo);
}

/** One VM with VM_PATHS (undefined when it does not exist any more). One round trip. */
export async function readVirtualMachine(
  ctx: VimContext,
  vm: MoRef,
  options?: RetrieveOptions,
): Promise<VmInfo | undefined> {
  try {
    const o = await retrieveObject(ctx.caller, ctx.content.propertyCollector, vm, VM_PATHS, options);
    return o === undefined ? undefined : toVmInfo(o);
  } catch (err) {
    if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound') return undefined;
    throw err;
  }
}

/**
 * The VMs `refs` with VM_PATHS, in one RetrievePropertiesEx (no view); a VM that no longer exists
 * is absent from the answer. vCenter faults the whole call with ManagedObjectNotFound when one of
 * them is gone: then each is read on its own (one round trip per VM, only in that case).
 */
export async function readVirtualMachinesByRef(
  ctx: VimContext,
  refs: readonly MoRef[],
  options?: RetrieveOptions,
): Promise<VmInfo[]> {
  if (refs.length === 0) return [];
  try {
    const objects = await retrieveAll(
      ctx.caller,
      ctx.content.propertyCollector,
      [
        {
          propSet: [{ type: 'VirtualMachine', pathSet: [...VM_PATHS] }],
          objectSet: refs.map((obj) => ({ obj, skip: false })),
        },
      ],
      options,
    );
    return objects.map(toVmInfo);
  } catch (err) {
    if (!(err instanceof VimFault && err.faultType === 'ManagedObjectNotFound')) throw err;
    const each = await Promise.all(refs.map((ref) => readVirtualMachine(ctx, ref, options)));
    return each.filter((info): info is VmInfo => info !== undefined);
  }
}

/** The devices of one VM (`config.hardware.device`). One round trip. */
export async function readVmDevices(
  ctx: VimContext,
  vm: MoRef,
  options?: RetrieveOptions,
): Promise<VmDevice[]> {
  const o = await retrieveObject(
    ctx.caller,
    ctx.content.propertyCollector,
    vm,
    ['config.hardware.device'],
    options,
  );
  return toVmDevices(o?.props.get('config.hardware.device'));
}
