import type { OfferingState } from '@app/contracts';

/** What the adapter knows of an offering: its provider (customer) and state, each possibly not yet. */
export interface OfferingFacts {
  offeringUuid: string;
  customerUuid: string | null;
  state: OfferingState | null;
}

/** States in which an offering is in the catalogue, its inventory shown to every customer. */
const PUBLIC_STATES: readonly OfferingState[] = ['Active', 'Paused'];

/**
 * Whether a caller may see an offering's inventory (templates, clusters, networks, datastores,
 * folders, limits): staff always; the owners of its provider always; anyone else only once it is
 * public. A Draft or Archived offering, or one whose state has not reached the adapter yet, is its
 * provider's and staff's alone: refuse rather than guess. Pure.
 */
export function canSeeOfferingInventory(
  isStaff: boolean,
  ownedCustomerUuids: readonly string[],
  offering: Pick<OfferingFacts, 'customerUuid' | 'state'>,
): boolean {
  if (isStaff) return true;
  if (offering.customerUuid !== null && ownedCustomerUuids.includes(offering.customerUuid)) return true;
  return offering.state !== null && PUBLIC_STATES.includes(offering.state);
}
