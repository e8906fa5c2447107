import type { ResourceState } from '@app/contracts';

/** A VM's hardware as its VmChanged reports it (CPUs, RAM and total disk in MiB). */
export interface ObservedHardware {
  readonly cores: number;
  readonly ram: number;
  readonly disk: number;
}

/** A VM as the adapter recorded it: its hardware, and whether a pull found it gone from vCenter. */
export interface ObservedVm extends ObservedHardware {
  readonly gone: boolean;
}

/** What an observation may change on a resource and counts against its quotas. */
export interface ObservedFigures {
  readonly limits: Record<string, number>;
  readonly backend_gone: boolean;
}

/** A resource's figures before and after an observation changed them. */
export interface ObservedChange {
  readonly before: ObservedFigures;
  readonly after: ObservedFigures;
}

/** What a resource holds that an observation may change. */
export interface ObservedResource {
  readonly state: ResourceState;
  readonly limits: Record<string, number>;
  readonly limitsObservedAt: Date | null;
}

/**
 * The resource's limits after its VM reported `hardware` at `observedAt` (a day-2 change, a drift
 * pull), or null when they stay: a resource still being created (its OrderDone sets them) or gone,
 * or a report older than the last one taken (redelivered out of order). Other limits are kept. Pure.
 */
export function limitsAfterObservation(
  resource: ObservedResource,
  hardware: ObservedHardware,
  observedAt: Date,
): Record<string, number> | null {
  if (resource.state === 'Creating' || resource.state === 'Terminated') return null;
  if (resource.limitsObservedAt !== null && observedAt <= resource.limitsObservedAt) return null;
  return { ...resource.limits, cpu: hardware.cores, ram: hardware.ram, disk: hardware.disk };
}

/** Whether two limit sets hold the same values. Pure. */
export function sameLimits(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}
