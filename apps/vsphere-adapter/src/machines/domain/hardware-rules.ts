/** The offering's maximums (MiB for RAM and disk); null = no limit. */
export interface OfferingMaximums {
  readonly maxCpu: number | null;
  readonly maxCoresPerSocket: number | null;
  readonly maxRam: number | null;
  readonly maxDisk: number | null;
  readonly maxDiskTotal: number | null;
}

/** What a VM gets: vCPUs, cores per socket, RAM and disk in MiB. */
export interface Hardware {
  readonly cpu: number;
  readonly coresPerSocket: number;
  readonly ram: number;
  readonly disk: number;
}

// Waldur's messages (VmwareVirtualMachineSerializer and the marketplace processors).
export const HARDWARE_MESSAGES = {
  cpuLimit: 'Requested amount of CPU exceeds offering limit.',
  coresMultiple: 'Number of CPU cores should be multiple of cores per socket.',
  coresPerSocketLimit: 'Requested amount of cores per socket exceeds offering limit.',
  ramTooSmall: 'Requested amount of RAM is too small.',
  ramLimit: 'Requested amount of RAM exceeds offering limit.',
  diskLimit: 'Requested amount of disk exceeds offering limit.',
  diskUnchangeable: 'Disk size cannot be changed',
  atLeastOne: 'Ensure this value is greater than or equal to 1.',
  wholeNumber: 'A valid integer is required.',
} as const;

export const MIN_RAM_MIB = 1024;

/**
 * What vSphere 8 allows any VM at all, whatever its hardware version ("Hardware Features Available
 * with Virtual Machine Compatibility Settings", vSphere 8.0 VM Administration): 768 logical
 * processors (HWV 18 and later), 256 cores per socket (HWV 20 and later; 64 before), 24560 GB of
 * memory (HWV 18 and later). vCenter refuses more at the reconfigure or deploy; we refuse it at the
 * request, naming the limit.
 */
export const VSPHERE_MAXIMUMS = { cpu: 768, coresPerSocket: 256, ramMiB: 24_560 * 1024 } as const;

export const VSPHERE_MESSAGES = {
  cpu: `vSphere allows at most ${VSPHERE_MAXIMUMS.cpu} virtual CPUs per virtual machine.`,
  coresPerSocket: `vSphere allows at most ${VSPHERE_MAXIMUMS.coresPerSocket} cores per socket.`,
  ram: `vSphere allows at most ${VSPHERE_MAXIMUMS.ramMiB} MiB (24560 GB) of memory per virtual machine.`,
} as const;

/** Field errors keyed by limit or attribute name (`cpu`, `ram`, `disk`, `cores_per_socket`). */
export type FieldErrors = Record<string, string[]>;

export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** A whole number ≥ 1 given by the user, or the default when unset; an error otherwise. Pure. */
export function positiveOr(
  value: unknown,
  fallback: number,
): { ok: true; value: number } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, value: fallback };
  if (typeof value !== 'number' || !Number.isInteger(value))
    return { ok: false, message: HARDWARE_MESSAGES.wholeNumber };
  if (value < 1) return { ok: false, message: HARDWARE_MESSAGES.atLeastOne };
  return { ok: true, value };
}

/**
 * Checks CPU, cores per socket and RAM against vSphere's own maximums, the offering's maximums and
 * Waldur's rules (RAM at least 1024 MiB, CPUs a multiple of the cores per socket); `checkDisk` adds the disk against
 * `max_disk` and `max_disk_total` (create only: an update cannot change the disk). Pure.
 */
export function checkHardware(hw: Hardware, max: OfferingMaximums, checkDisk: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (hw.cpu > VSPHERE_MAXIMUMS.cpu) addError(errors, 'cpu', VSPHERE_MESSAGES.cpu);
  if (hw.coresPerSocket > VSPHERE_MAXIMUMS.coresPerSocket)
    addError(errors, 'cores_per_socket', VSPHERE_MESSAGES.coresPerSocket);
  if (hw.ram > VSPHERE_MAXIMUMS.ramMiB) addError(errors, 'ram', VSPHERE_MESSAGES.ram);
  if (max.maxCpu !== null && hw.cpu > max.maxCpu) addError(errors, 'cpu', HARDWARE_MESSAGES.cpuLimit);
  if (hw.cpu % hw.coresPerSocket !== 0) addError(errors, 'cpu', HARDWARE_MESSAGES.coresMultiple);
  if (max.maxCoresPerSocket !== null && hw.coresPerSocket > max.maxCoresPerSocket)
    addError(errors, 'cores_per_socket', HARDWARE_MESSAGES.coresPerSocketLimit);
  if (hw.ram < MIN_RAM_MIB) addError(errors, 'ram', HARDWARE_MESSAGES.ramTooSmall);
  if (max.maxRam !== null && hw.ram > max.maxRam) addError(errors, 'ram', HARDWARE_MESSAGES.ramLimit);
  if (
    checkDisk &&
    ((max.maxDisk !== null && hw.disk > max.maxDisk) ||
      (max.maxDiskTotal !== null && hw.disk > max.maxDiskTotal))
  )
    addError(errors, 'disk', HARDWARE_MESSAGES.diskLimit);
  return errors;
}
