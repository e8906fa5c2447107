import { z } from 'zod';

/**
 * `sync-targets.list`: the offerings the sync-scheduler keeps synchronised — every vSphere offering
 * that is not archived, whatever its integration state (ERRED ones included, as the seed says).
 * Asked by the sync-scheduler only, answered by the order service, over core NATS; no caller: it
 * is one service asking another, and the NATS permissions allow no one else to ask.
 */
export const SYNC_TARGETS_PATTERN = 'sync-targets.list';

export const syncTargetsRequestSchema = z.strictObject({});

export const syncTargetsViewSchema = z.object({ offering_uuids: z.array(z.uuid()) });
export type SyncTargetsView = z.infer<typeof syncTargetsViewSchema>;
