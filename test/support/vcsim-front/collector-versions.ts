import type { HeldUpdate } from './update-sets';

/** What the front knows of one PropertyCollector (of one session): the versions it gave out. */
export interface CollectorVersions {
  /** The last version answered; undefined before the initial wait. */
  issued?: string;
  serial: number;
  /** Updates vcsim gave beyond `maxObjectUpdates`, answered (truncated) before any new wait. */
  held: HeldUpdate[];
}

/**
 * How the front takes a WaitForUpdatesEx `version`: `initial` ('': every object's state),
 * `current` (the last version it answered: a wait from there), `invalid` (any other: vCenter's
 * InvalidCollectorVersion). The front accepts only the last version (vCenter also accepts an older
 * non-truncated one: the front refuses more, never accepts more). Pure.
 */
export function judgeVersion(
  collector: CollectorVersions | undefined,
  version: string,
): 'initial' | 'current' | 'invalid' {
  if (version === '') return 'initial';
  return collector?.issued === version ? 'current' : 'invalid';
}

/**
 * The next answer of a collector: at most `max` held updates (all when unset), truncated when any
 * are left, under a new version. Mutates `collector`.
 */
export function takeAnswer(
  collector: CollectorVersions,
  max: number | undefined,
): { version: string; truncated: boolean; updates: HeldUpdate[] } {
  const updates = collector.held.splice(0, max === undefined || max <= 0 ? collector.held.length : max);
  collector.serial++;
  collector.issued = String(collector.serial);
  return { version: collector.issued, truncated: collector.held.length > 0, updates };
}
