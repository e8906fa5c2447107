import { z } from 'zod';
import type { EventContract } from '../envelope';

/**
 * SyncRequested: an offering's vCenter inventory is due for a synchronisation.
 * Published by the sync-scheduler (which has no database, so straight to JetStream, no outbox) on
 * `<ns>.scheduler.sync.requested.<offering type token>` (topology `subjects.syncRequested(type)`;
 * `…vmware-virtualmachine` for vSphere offerings) in the stream `<NS>_SCHEDULER` that the scheduler owns; consumed
 * by the vSphere adapter (durable `vsphere-adapter-sync-requested`), which records the request and
 * runs it coalesced with any running synchronisation of the offering. At least once: a duplicate only
 * causes one more synchronisation. Suggested `Nats-Msg-Id`: `sync:<offering uuid>:<interval start>`
 * so that two scheduler instances in one interval are deduplicated by the stream.
 * `correlationId` is the offering uuid.
 */
export const syncRequestedSchema = z.object({
  offeringUuid: z.uuid(),
  /** Why: the periodic schedule, or a person (free text, logged). */
  reason: z.string().max(200).optional(),
});

export type SyncRequested = z.infer<typeof syncRequestedSchema>;

export const SyncRequestedEvent: EventContract<SyncRequested> = {
  type: 'SyncRequested',
  schema: syncRequestedSchema,
};
