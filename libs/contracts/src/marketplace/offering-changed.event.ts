import { z } from 'zod';
import type { EventContract } from '../envelope';
import { offeringViewSchema } from './offerings.request';

/**
 * OfferingChanged: an offering was created, described anew, re-priced or moved to another state.
 * Published by the order service (through its outbox) on `<ns>.marketplace.offering.changed`;
 * read by the gateway's SSE stream. `offering` is the public representation, as
 * `GET /api/marketplace-provider-offerings/{uuid}/` returns it (without `url`). At least once;
 * `correlationId` is the offering uuid, which also keys the publish order.
 */
export const offeringChangedSchema = z.object({
  offering: offeringViewSchema,
  /** What happened: `created`, `updated`, `prices`, or the state it moved to (`Active`, ...). */
  change: z.string().min(1),
});

export type OfferingChanged = z.infer<typeof offeringChangedSchema>;

export const OfferingChangedEvent: EventContract<OfferingChanged> = {
  type: 'OfferingChanged',
  schema: offeringChangedSchema,
};
