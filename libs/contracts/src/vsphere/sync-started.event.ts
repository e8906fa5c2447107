import { z } from 'zod';
import type { EventContract } from '../envelope';
import { integrationViewSchema } from './integration-view';

/**
 * SyncStarted: the vSphere adapter began synchronising an offering's inventory.
 * Published by the vSphere adapter (through its outbox) on `<ns>.vsphere.feed.sync.started`;
 * for live clients (SSE: staff and the provider's owners). At least once; `correlationId` is the offering uuid; carries the
 * integration's public view (sync_state SYNCING), never the password.
 */
export const syncStartedSchema = z.object({
  offeringUuid: z.uuid(),
  /** The offering's customer (its provider), whose owners see the event; null if never told. */
  providerUuid: z.uuid().nullable(),
  integration: integrationViewSchema,
});

export type SyncStarted = z.infer<typeof syncStartedSchema>;

export const SyncStartedEvent: EventContract<SyncStarted> = {
  type: 'SyncStarted',
  schema: syncStartedSchema,
};
