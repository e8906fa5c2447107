import type { SoapObject } from '../soap/soap-encoder';
import { readVmDevices } from '../inventory/vm-readers';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import type {
  VirtualDisk,
  VirtualNvmeController,
  VirtualScsiController,
  VmDevice,
} from '../types/virtual-machine';
import { DeviceResolutionError, findCreatedDevice } from './device-diff';
import { runTask, vmObject, type VmOperationOptions } from './run-task';

/** Highest unit a disk can take on a SCSI bus (16 units, wide SCSI; the controller holds 7). */
const MAX_SCSI_UNIT = 15;
/** Highest unit a disk can take on an NVMe controller (15 namespaces). */
const MAX_NVME_UNIT = 14;
/** Disk controllers the client does not place disks on. */
const UNSUPPORTED_DISK_CONTROLLERS = new Set([
  'VirtualAHCIController',
  'VirtualSATAController',
  'VirtualIDEController',
]);

/** A disk controller the client places disks on. */
export type DiskController = VirtualScsiController | VirtualNvmeController;

/** Where a new disk goes: a controller and a free unit on it. */
export interface DiskSlot {
  readonly controller: DiskController;
  readonly unitNumber: number;
}

function firstFreeUnit(devices: readonly VmDevice[], controller: DiskController): number | undefined {
  const used = new Set(devices.filter((d) => d.controllerKey === controller.key).map((d) => d.unitNumber));
  const max = controller.kind === 'scsi' ? MAX_SCSI_UNIT : MAX_NVME_UNIT;
  if (controller.kind === 'scsi') used.add(controller.scsiCtlrUnitNumber);
  for (let unit = 0; unit <= max; unit++) if (!used.has(unit)) return unit;
  return undefined;
}

/**
 * The first free unit for a new disk: SCSI controllers first (units 0–15 but the controller's own,
 * 7), then NVMe controllers (units 0–14), each kind by bus number. Undefined when none has a free
 * unit. Pure.
 */
export function findFreeDiskSlot(devices: readonly VmDevice[]): DiskSlot | undefined {
  const byBus = (a: DiskController, b: DiskController) => a.busNumber - b.busNumber;
  const controllers = [
    ...devices.filter((d): d is VirtualScsiController => d.kind === 'scsi').sort(byBus),
    ...devices.filter((d): d is VirtualNvmeController => d.kind === 'nvme').sort(byBus),
  ];
  for (const controller of controllers) {
    const unitNumber = firstFreeUnit(devices, controller);
    if (unitNumber !== undefined) return { controller, unitNumber };
  }
  return undefined;
}

/** Why no disk can be added to a VM with `devices` (no free SCSI or NVMe unit). Pure. */
export function noDiskSlotMessage(devices: readonly VmDevice[]): string {
  const base = 'The virtual machine has no SCSI or NVMe controller with a free unit.';
  const hasOwn = devices.some((d) => d.kind === 'scsi' || d.kind === 'nvme');
  const hasOthers = devices.some((d) => UNSUPPORTED_DISK_CONTROLLERS.has(d.type));
  return !hasOwn && hasOthers ? `${base} Disks on SATA or IDE controllers are not supported.` : base;
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
 * Adds a thin VirtualDisk on the first SCSI, else NVMe, controller with a free unit (ReconfigVM_Task,
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
  const slot = findFreeDiskSlot(before);
  if (slot === undefined) throw new DeviceResolutionError(noDiskSlotMessage(before));
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
