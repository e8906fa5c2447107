import type { SoapObject } from '../soap/soap-encoder';
import { asMoRef } from '../xml/values';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** Destroy_Task on a VM (its files deleted), waited for. */
export async function destroyVm(ctx: VimContext, vm: MoRef, options?: VmOperationOptions): Promise<void> {
  await runTask(ctx, (o) => vmObject(ctx, vm).destroy(o), options);
}

/** MarkAsVirtualMachine: a template becomes a VM in `pool` (and `host`). One round trip. */
export async function markTemplateAsVm(
  ctx: VimContext,
  vm: MoRef,
  pool: MoRef,
  host?: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await vmObject(ctx, vm).markAsVirtualMachine(pool, host, options);
}

/** MarkAsTemplate: a powered-off VM becomes a template. One round trip. */
export async function markVmAsTemplate(
  ctx: VimContext,
  vm: MoRef,
  options?: VmOperationOptions,
): Promise<void> {
  await vmObject(ctx, vm).markAsTemplate(options);
}

/** Where and how to clone. */
export interface CloneTarget {
  readonly folder: MoRef;
  readonly name: string;
  readonly pool?: MoRef;
  readonly datastore?: MoRef;
  readonly host?: MoRef;
  readonly powerOn?: boolean;
  readonly template?: boolean;
}

/** CloneVM_Task (VirtualMachineCloneSpec: location, template, powerOn), waited for; returns the new VM. */
export async function cloneVm(
  ctx: VimContext,
  vm: MoRef,
  target: CloneTarget,
  options?: VmOperationOptions,
): Promise<MoRef | undefined> {
  const spec: SoapObject = {
    location: { datastore: target.datastore, pool: target.pool, host: target.host },
    template: target.template ?? false,
    powerOn: target.powerOn ?? false,
  };
  return asMoRef(
    await runTask(ctx, (o) => vmObject(ctx, vm).clone(target.folder, target.name, spec, o), options),
  );
}
