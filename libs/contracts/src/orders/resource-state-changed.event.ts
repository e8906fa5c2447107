import { z } from 'zod';
import type { EventContract } from '../envelope';
import { RESOURCE_STATES, resourceViewSchema } from './order-views';

/**
 * ResourceStateChanged: a marketplace resource was created or changed state (or its backend id,
 * limits or error message changed with it).
 * Published by the order service (through its outbox) on `<ns>.marketplace.feed.resource`; read by
 * the gateway for SSE. At least once; `correlationId` is the order uuid that caused the change, and
 * the resource uuid keys the publish order.
 */
export const resourceStateChangedSchema = z.object({
  resource: resourceViewSchema,
  previous_state: z.enum(RESOURCE_STATES).nullable(),
});
export type ResourceStateChanged = z.infer<typeof resourceStateChangedSchema>;

export const ResourceStateChangedEvent: EventContract<ResourceStateChanged> = {
  type: 'ResourceStateChanged',
  schema: resourceStateChangedSchema,
};
