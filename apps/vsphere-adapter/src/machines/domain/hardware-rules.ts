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
 * Checks CPU, cores per socket and RAM against the offering's maximums and Waldur's rules (RAM at
 * least 1024 MiB, CPUs a multiple of the cores per socket); `checkDisk` adds the disk against
 * `max_disk` and `max_disk_total` (create only: an update cannot change the disk). Pure.
 */
export function checkHardware(hw: Hardware, max: OfferingMaximums, checkDisk: boolean): FieldErrors {
  const errors: FieldErrors = {};
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
