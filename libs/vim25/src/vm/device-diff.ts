import type { VmDevice } from '../types/virtual-machine';

/** A device added by a reconfigure could not be told apart from the others. */
export class DeviceResolutionError extends Error {
  override readonly name = 'DeviceResolutionError';
}

/**
 * Finds the device a ReconfigVM_Task `add` created: the devices of `kind` whose key was not
 * there before and that `matches` accepts (by backing, or controller and unit), so a concurrent
 * add of another device is not taken for ours. Never uses labels. Throws DeviceResolutionError
 * on none or several. Pure.
 */
export function findCreatedDevice<K extends VmDevice['kind']>(
  before: readonly VmDevice[],
  after: readonly VmDevice[],
  kind: K,
  matches: (device: Extract<VmDevice, { kind: K }>) => boolean,
): Extract<VmDevice, { kind: K }> {
  const known = new Set(before.map((d) => d.key));
  const created = after.filter(
    (d): d is Extract<VmDevice, { kind: K }> => d.kind === kind && !known.has(d.key),
  );
  const candidates = created.filter(matches);
  if (candidates.length === 1) return candidates[0];
  throw new DeviceResolutionError(
    candidates.length === 0
      ? `no new ${kind} device found after the reconfigure`
      : `${candidates.length} new ${kind} devices match (keys ${candidates.map((d) => d.key).join(', ')}); cannot tell which one was added`,
  );
}
