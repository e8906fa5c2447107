import { z } from 'zod';
import type { EventContract } from '../envelope';

/**
 * AccessChanged: what these users may see changed (a role granted, changed or revoked, a user made
 * staff or deactivated, a token revoked). Published by the order service (through its outbox) on
 * `<ns>.marketplace.feed.access`; the gateway resolves the caller context of these users' SSE
 * subscribers again, so a revoked role stops their events at once. Never forwarded to subscribers.
 */
export const accessChangedSchema = z.object({
  user_uuids: z.array(z.uuid()).min(1).max(10_000),
});
export type AccessChanged = z.infer<typeof accessChangedSchema>;

export const AccessChangedEvent: EventContract<AccessChanged> = {
  type: 'AccessChanged',
  schema: accessChangedSchema,
};
