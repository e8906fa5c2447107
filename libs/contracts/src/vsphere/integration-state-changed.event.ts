import { z } from 'zod';
import type { EventContract } from '../envelope';
import { INTEGRATION_STATES, integrationViewSchema } from './integration-view';

/**
 * IntegrationStateChanged: an offering's integration went to OK or ERRED (or changed its error).
 * Published by the vSphere adapter (through its outbox, with the state change) on
 * `<ns>.vsphere.feed.integration`; consumed by live clients (SSE: staff and the provider's owners) and by whoever keeps a
 * projection of the state (the order service's `activate` needs OK). At least once;
 * `correlationId` is the offering uuid; carries the public view, never the password.
 */
export const integrationStateChangedSchema = z.object({
  offeringUuid: z.uuid(),
  /** The offering's customer (its provider), whose owners see the event; null if never told. */
  providerUuid: z.uuid().nullable(),
  previousState: z.enum(INTEGRATION_STATES),
  state: z.enum(INTEGRATION_STATES),
  errorMessage: z.string(),
  integration: integrationViewSchema,
});

export type IntegrationStateChanged = z.infer<typeof integrationStateChangedSchema>;

export const IntegrationStateChangedEvent: EventContract<IntegrationStateChanged> = {
  type: 'IntegrationStateChanged',
  schema: integrationStateChangedSchema,
};
