import { z } from 'zod';
import type { EventContract } from '../envelope';
import { ORDER_STATES, orderViewSchema } from './order-views';

/**
 * OrderStateChanged: an order was created or moved to another state.
 * Published by the order service (through its outbox, in the transaction of the change) on
 * `<ns>.marketplace.feed.order`; read by the gateway for SSE, which forwards `order` to subscribers
 * who may see its project. At least once; `correlationId` is the order uuid (the publish order key).
 */
export const orderStateChangedSchema = z.object({
  order: orderViewSchema,
  /** The state it left; null when the order was just created. */
  previous_state: z.enum(ORDER_STATES).nullable(),
});
export type OrderStateChanged = z.infer<typeof orderStateChangedSchema>;

export const OrderStateChangedEvent: EventContract<OrderStateChanged> = {
  type: 'OrderStateChanged',
  schema: orderStateChangedSchema,
};
