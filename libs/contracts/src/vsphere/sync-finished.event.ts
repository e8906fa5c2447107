import { z } from 'zod';
import type { EventContract } from '../envelope';
import {
  INTEGRATION_STATES,
  integrationViewSchema,
  inventoryCountsSchema,
  skippedObjectSchema,
} from './integration-view';

const changeCounts = z.object({
  created: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});

/**
 * SyncFinished: a synchronisation of an offering's inventory ended, well or not.
 * Published by the vSphere adapter (through its outbox, in the transaction that stores its result)
 * on `<ns>.vsphere.feed.sync.finished`; for live clients (SSE: staff and the provider's owners). At least once; `correlationId` is
 * the offering uuid. `outcome` OK: the inventory was replaced by what vCenter holds (`counts`,
 * `changes`, `skipped` with reasons, `errors` of single objects kept as they were); ERRED: nothing
 * changed and `errorMessage` says why (vCenter's message, a connection or a TLS failure).
 */
export const syncFinishedSchema = z.object({
  offeringUuid: z.uuid(),
  /** The offering's customer (its provider), whose owners see the event; null if never told. */
  providerUuid: z.uuid().nullable(),
  outcome: z.enum(INTEGRATION_STATES).exclude(['CREATING']),
  errorMessage: z.string(),
  counts: inventoryCountsSchema,
  changes: z.object({
    templates: changeCounts,
    clusters: changeCounts,
    networks: changeCounts,
    datastores: changeCounts,
    folders: changeCounts,
  }),
  skipped: z.array(skippedObjectSchema),
  /** Objects that could not be read this time; their previous rows were kept. */
  errors: z.array(z.string()),
  durationMs: z.number().int().nonnegative(),
  integration: integrationViewSchema,
});

export type SyncFinished = z.infer<typeof syncFinishedSchema>;

export const SyncFinishedEvent: EventContract<SyncFinished> = {
  type: 'SyncFinished',
  schema: syncFinishedSchema,
};
