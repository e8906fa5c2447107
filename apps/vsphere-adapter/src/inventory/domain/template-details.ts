/** The hardware of a usable template, in the units the marketplace keeps (MiB). */
export interface TemplateHardware {
  readonly guestOs: string;
  readonly cores: number;
  readonly coresPerSocket: number;
  readonly ramMiB: number;
  readonly diskMiB: number;
  readonly nicCount: number;
}

export type TemplateReading =
  | { readonly usable: true; readonly hardware: TemplateHardware }
  | { readonly usable: false; readonly reason: string };

const MIB = 1024 * 1024;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const positiveInt = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;

/**
 * Reads vCenter 8's answer to `GET /api/vcenter/vm-template/library-items/{id}`. vCenter answers 200
 * with an empty or null body for an item that holds no VM template, and has been seen returning a
 * skeleton (`{"cpu":{},"memory":{},"vm_home_storage":{}}`): such a template, or one without CPU count,
 * cores per socket, memory, disk capacity or guest OS, is not usable and the reason names what is
 * missing. Total disk is the sum of the disks' capacities (bytes → MiB, rounded down). Pure.
 */
export function readTemplateDetails(raw: unknown): TemplateReading {
  if (raw === undefined || raw === null || (isObject(raw) && Object.keys(raw).length === 0))
    return { usable: false, reason: 'vCenter returned no details for it (an empty answer).' };
  if (!isObject(raw)) return { usable: false, reason: 'vCenter returned details of an unexpected shape.' };
  const cpu = isObject(raw.cpu) ? raw.cpu : {};
  const memory = isObject(raw.memory) ? raw.memory : {};
  const disks = isObject(raw.disks) ? Object.values(raw.disks) : [];
  const nics = isObject(raw.nics) ? Object.keys(raw.nics) : [];
  const capacities = disks.map((d) => (isObject(d) ? d.capacity : undefined));
  const diskBytes = capacities.every((c) => typeof c === 'number' && Number.isFinite(c) && c > 0)
    ? (capacities as number[]).reduce((sum, c) => sum + c, 0)
    : 0;
  const hardware = {
    guestOs: typeof raw.guest_OS === 'string' && raw.guest_OS !== '' ? raw.guest_OS : undefined,
    cores: positiveInt(cpu.count),
    coresPerSocket: positiveInt(cpu.cores_per_socket),
    ramMiB: positiveInt(memory.size_MiB),
    diskMiB: diskBytes >= MIB ? Math.floor(diskBytes / MIB) : undefined,
  };
  const missing = [
    hardware.cores === undefined && 'cpu.count',
    hardware.coresPerSocket === undefined && 'cpu.cores_per_socket',
    hardware.ramMiB === undefined && 'memory.size_MiB',
    hardware.diskMiB === undefined && 'disks (capacity)',
    hardware.guestOs === undefined && 'guest_OS',
  ].filter((m): m is string => m !== false);
  if (missing.length > 0)
    return { usable: false, reason: `vCenter did not report ${missing.join(', ')} for it.` };
  return {
    usable: true,
    hardware: {
      guestOs: hardware.guestOs as string,
      cores: hardware.cores as number,
      coresPerSocket: hardware.coresPerSocket as number,
      ramMiB: hardware.ramMiB as number,
      diskMiB: hardware.diskMiB as number,
      nicCount: nics.length,
    },
  };
}

/**
 * Basic mode offers only templates with exactly one network adapter (Waldur's `pull_templates`:
 * none and several are both skipped). The reason, or undefined when the template qualifies. Pure.
 */
export function basicModeTemplateProblem(nicCount: number): string | undefined {
  if (nicCount === 1) return undefined;
  return `In basic mode only templates with exactly one network adapter are offered; it has ${nicCount}.`;
}
