import { HARDWARE_MESSAGES, type OfferingMaximums } from './hardware-rules';

// Waldur's messages (VmwareDiskSerializer, VmwareDiskExtendSerializer, VmwarePortSerializer).
export const DEVICE_MESSAGES = {
  diskTooSmall: 'Requested amount of disk is too small.',
  diskLimit: HARDWARE_MESSAGES.diskLimit,
  quotaReached: 'Storage quota has been reached.',
  notLarger: (size: number) => `Disk size should be greater than ${size}`,
  tooManyPorts: `Virtual machine can have at most 10 network adapters.`,
} as const;

/** Waldur's smallest new disk, MiB. */
export const MIN_DISK_MIB = 1024;
/** vSphere's limit of network adapters per VM (Waldur refuses the eleventh). */
export const MAX_PORTS = 10;

type DiskLimits = Pick<OfferingMaximums, 'maxDisk' | 'maxDiskTotal'>;

/**
 * Why a new disk of `size` MiB may not be added to a VM whose disks take `vmTotal` MiB (the
 * disks it has and those queued), or null. Pure.
 */
export function newDiskRefusal(size: number, vmTotal: number, max: DiskLimits): string | null {
  if (size < MIN_DISK_MIB) return DEVICE_MESSAGES.diskTooSmall;
  if (max.maxDisk !== null && size > max.maxDisk) return DEVICE_MESSAGES.diskLimit;
  if (max.maxDiskTotal !== null && max.maxDiskTotal - vmTotal < size) return DEVICE_MESSAGES.quotaReached;
  return null;
}

/**
 * Why a disk of `current` MiB may not grow to `size` on a VM whose disks take `vmTotal` MiB (the
 * disk itself counted back in), or null. Pure.
 */
export function extendRefusal(
  size: number,
  current: number,
  vmTotal: number,
  max: DiskLimits,
): string | null {
  if (size <= current) return DEVICE_MESSAGES.notLarger(current);
  if (max.maxDisk !== null && size > max.maxDisk) return DEVICE_MESSAGES.diskLimit;
  if (max.maxDiskTotal !== null && max.maxDiskTotal - (vmTotal - current) < size)
    return DEVICE_MESSAGES.quotaReached;
  return null;
}

/** Why another adapter may not be added to a VM that has (or is getting) `ports`, or null. Pure. */
export function newPortRefusal(ports: number): string | null {
  return ports >= MAX_PORTS ? DEVICE_MESSAGES.tooManyPorts : null;
}
