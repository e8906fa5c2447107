import type { OfferingState } from '@app/contracts';

/**
 * Offering states as Waldur moves them: a Draft is prepared, then activated; an Active offering can
 * be paused (no new orders) and resumed; any offering can be archived for good.
 */
const TRANSITIONS: Record<'activate' | 'pause' | 'archive', readonly OfferingState[]> = {
  activate: ['Draft', 'Paused'],
  pause: ['Active'],
  archive: ['Draft', 'Active', 'Paused'],
};

export const TARGET_STATE = { activate: 'Active', pause: 'Paused', archive: 'Archived' } as const;

export type OfferingAction = keyof typeof TRANSITIONS;

export function canApply(action: OfferingAction, from: OfferingState): boolean {
  return TRANSITIONS[action].includes(from);
}

/** Waldur's wording for a transition the offering's state does not allow. */
export function refusalOf(action: OfferingAction, from: OfferingState): string {
  return `Offering in state ${from} cannot be moved by "${action}".`;
}
