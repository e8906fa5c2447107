import type { ToolsState, VmRuntimeState } from '@app/contracts';

/** The offering's snapshot limits (integration columns). */
export interface SnapshotLimits {
  readonly maxSnapshots: number;
  readonly snapshotMaxAgeHours: number;
  readonly memorySnapshots: boolean;
}

export const SNAPSHOT_MESSAGES = {
  memoryNotAllowed: 'This offering does not allow snapshots with memory.',
  memoryNeedsPower: (state: VmRuntimeState) =>
    `A snapshot with memory needs a POWERED_ON virtual machine; it is ${state}.`,
  quiesceNeedsTools: 'A quiesced snapshot needs VMware Tools running in the virtual machine.',
  snapshotsOff: 'This offering does not allow snapshots.',
  tooMany: (max: number) =>
    `This virtual machine has ${max} snapshot${max === 1 ? '' : 's'}, the most this offering allows; delete one first.`,
  tooOld: (hours: number) =>
    `This snapshot is older than ${hours} hours; snapshots are not backups and slow the virtual machine down as they grow: delete it once it is no longer needed.`,
} as const;

/** Field errors of a snapshot request the offering refuses whatever the VM's state (400). Pure. */
export function snapshotFieldErrors(
  body: { memory?: boolean },
  limits: SnapshotLimits,
): Record<string, string[]> {
  return body.memory === true && !limits.memorySnapshots
    ? { memory: [SNAPSHOT_MESSAGES.memoryNotAllowed] }
    : {};
}

/**
 * Why a snapshot may not be taken now (409), or null: over the offering's count, memory of a VM
 * that is not running, quiesce without Tools. vCenter would take the last two while silently
 * leaving the memory out or the file systems unquiesced ("the flag is ignored"); a person who asked
 * for either is told instead. Pure.
 */
export function snapshotRefusal(
  body: { memory?: boolean; quiesce?: boolean },
  vm: { runtimeState: VmRuntimeState; toolsState: ToolsState; snapshotCount: number },
  limits: SnapshotLimits,
): string | null {
  if (limits.maxSnapshots === 0) return SNAPSHOT_MESSAGES.snapshotsOff;
  if (vm.snapshotCount >= limits.maxSnapshots) return SNAPSHOT_MESSAGES.tooMany(limits.maxSnapshots);
  if (body.memory === true && vm.runtimeState !== 'POWERED_ON')
    return SNAPSHOT_MESSAGES.memoryNeedsPower(vm.runtimeState);
  if (body.quiesce === true && vm.toolsState !== 'RUNNING') return SNAPSHOT_MESSAGES.quiesceNeedsTools;
  return null;
}

/** The warnings of a snapshot taken at `created` under `maxAgeHours`, at `now`. Pure. */
export function snapshotWarnings(created: Date, maxAgeHours: number, now: Date): string[] {
  return now.getTime() - created.getTime() > maxAgeHours * 3_600_000
    ? [SNAPSHOT_MESSAGES.tooOld(maxAgeHours)]
    : [];
}
