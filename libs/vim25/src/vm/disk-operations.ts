import type { SoapObject } from '../soap/soap-encoder';
import { readVmDevices } from '../inventory/vm-readers';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import type { VirtualDisk, VirtualScsiController, VmDevice } from '../types/virtual-machine';
import { DeviceResolutionError, findCreatedDevice } from './device-diff';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** Highest unit on a SCSI bus (16 units, wide SCSI). */
const MAX_SCSI_UNIT = 15;

/** The first SCSI controller (by bus number) with a free unit, and that unit; the controller's own unit (7) is never used. Pure. */
export function findFreeScsiSlot(
  devices: readonly VmDevice[],
): { controller: VirtualScsiController; unitNumber: number } | undefined {
  const controllers = devices
    .filter((d): d is VirtualScsiController => d.kind === 'scsi')
    .sort((a, b) => a.busNumber - b.busNumber);
  for (const controller of controllers) {
    const used = new Set(devices.filter((d) => d.controllerKey === controller.key).map((d) => d.unitNumber));
    used.add(controller.scsiCtlrUnitNumber);
    for (let unit = 0; unit <= MAX_SCSI_UNIT; unit++) {
      if (!used.has(unit)) return { controller, unitNumber: unit };
    }
  }
  return undefined;
}

function diskOf(devices: readonly VmDevice[], diskKey: number): VirtualDisk {
  const disk = devices.find((d): d is VirtualDisk => d.kind === 'disk' && d.key === diskKey);
  if (disk === undefined) throw new DeviceResolutionError(`the VM has no disk with key ${diskKey}`);
  return disk;
}

/** A new thin disk. */
export interface NewDisk {
  readonly capacityInKB: number;
  /** Datastore name to place the file on; default: with the VM. */
  readonly datastoreName?: string;
}

/**
 * Adds a thin VirtualDisk on the first SCSI controller with a free unit (ReconfigVM_Task,
 * fileOperation=create) and returns the created disk, found by key diff and controller+unit.
 * Cost: 2 device reads + the reconfigure task.
 */
export async function addDisk(
  ctx: VimContext,
  vm: MoRef,
  disk: NewDisk,
  options?: VmOperationOptions,
): Promise<VirtualDisk> {
  const before = await readVmDevices(ctx, vm, options);
  const slot = findFreeScsiSlot(before);
  if (slot === undefined) throw new DeviceResolutionError('the VM has no SCSI controller with a free unit');
  const device: SoapObject = {
    _type: 'VirtualDisk',
    key: -1,
    backing: {
      _type: 'VirtualDiskFlatVer2BackingInfo',
      fileName: disk.datastoreName === undefined ? '' : `[${disk.datastoreName}]`,
      diskMode: 'persistent',
      thinProvisioned: true,
    },
    controllerKey: slot.controller.key,
    unitNumber: slot.unitNumber,
    capacityInKB: disk.capacityInKB,
  };
  const spec = { deviceChange: [{ operation: 'add', fileOperation: 'create', device }] };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
  const after = await readVmDevices(ctx, vm, options);
  return findCreatedDevice(
    before,
    after,
    'disk',
    (d) => d.controllerKey === slot.controller.key && d.unitNumber === slot.unitNumber,
  );
}

/**
 * Grows a disk to `capacityInKB` (ReconfigVM_Task edit), sending the whole device back as read
 * (vcsim corrupts a VM given a partial device). Cost: 2 device reads + the task. Returns the disk.
 */
export async function extendDisk(
  ctx: VimContext,
  vm: MoRef,
  diskKey: number,
  capacityInKB: number,
  options?: VmOperationOptions,
): Promise<VirtualDisk> {
  const disk = diskOf(await readVmDevices(ctx, vm, options), diskKey);
  const device: SoapObject = {
    ...disk.raw,
    capacityInKB,
    ...(disk.raw.capacityInBytes === undefined ? {} : { capacityInBytes: capacityInKB * 1024 }),
  };
  const spec = { deviceChange: [{ operation: 'edit', device }] };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
  return diskOf(await readVmDevices(ctx, vm, options), diskKey);
}

/** Removes a disk and deletes its file (ReconfigVM_Task remove, fileOperation=destroy). Cost: 1 read + the task. */
export async function removeDisk(
  ctx: VimContext,
  vm: MoRef,
  diskKey: number,
  options?: VmOperationOptions,
): Promise<void> {
  const disk = diskOf(await readVmDevices(ctx, vm, options), diskKey);
  const spec = { deviceChange: [{ operation: 'remove', fileOperation: 'destroy', device: disk.raw }] };
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure(spec, o), options);
}
