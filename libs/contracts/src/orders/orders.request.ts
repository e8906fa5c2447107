import { z } from 'zod';
import { operation, paginationQuery, uuidParams } from '../identity/operation';
import { flag, hyperlink, messages, planHyperlink, queryBoolean, text } from '../identity/wire-fields';
import { ORDER_STATES, ORDER_TYPES, RESOURCE_STATES, orderViewSchema } from './order-views';

/**
 * Orders and marketplace resources: core NATS request-reply, asked by the gateway for
 * `/api/marketplace-orders/` and `/api/marketplace-resources/`, answered by the order service. The
 * caller must be able to act in the order's project (the access policy of identity); provider
 * actions need a role in the offering's customer.
 */

/** A limit in the component's base unit (vCPU, MiB): a whole number ≥ 0. */
const limitValue = z
  .number({ error: messages.integer })
  .int(messages.integer)
  .min(0, messages.minValue(0))
  .max(1_000_000_000, messages.maxValue(1_000_000_000));

export const orderLimits = z.record(z.string().max(50), limitValue, { error: 'Must be an object.' });
export const orderAttributes = z.record(z.string().max(100), z.unknown(), { error: 'Must be an object.' });

/** The seed's order body (`provision --request`): every link as its URL, its path or its uuid. */
export const createOrderBody = z.strictObject({
  offering: hyperlink('marketplace-public-offerings'),
  project: hyperlink('projects'),
  plan: planHyperlink().optional(),
  type: z
    .enum(['Create'], {
      error: "Only Create orders are made here: use the resource's update_limits or terminate.",
    })
    .optional(),
  attributes: orderAttributes.default({}),
  limits: orderLimits.default({}),
  accepting_terms_of_service: flag().optional(),
});

export const createOrderQuery = z.object({
  dry_run: queryBoolean()
    .optional()
    .meta({ description: 'Validate fully and answer the order that would be created; create nothing' }),
});

/** The order a dry run would create: the stored fields, with the project and defaults filled in. */
export const orderDraftViewSchema = orderViewSchema.pick({
  type: true,
  offering_uuid: true,
  offering_name: true,
  offering_type: true,
  project_uuid: true,
  project_name: true,
  customer_uuid: true,
  customer_name: true,
  plan_uuid: true,
  plan_name: true,
  provider_uuid: true,
  provider_name: true,
  attributes: true,
  limits: true,
  cost: true,
});
export type OrderDraftView = z.infer<typeof orderDraftViewSchema>;

export const orderListQuery = z.object({
  ...paginationQuery,
  offering_uuid: z.uuid({ error: messages.uuid }).optional(),
  project_uuid: z.uuid({ error: messages.uuid }).optional(),
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
  provider_uuid: z.uuid({ error: messages.uuid }).optional().meta({ description: "The offering's customer" }),
  resource_uuid: z
    .uuid({ error: messages.uuid })
    .optional()
    .meta({ description: 'The marketplace resource' }),
  state: z.enum(ORDER_STATES, { error: `Must be one of: ${ORDER_STATES.join(', ')}.` }).optional(),
  type: z.enum(ORDER_TYPES, { error: `Must be one of: ${ORDER_TYPES.join(', ')}.` }).optional(),
});

export const setStateErredBody = z.strictObject({
  error_message: text(10_000, { blank: true }).default(''),
  error_traceback: text(100_000, { blank: true }).optional(),
});

export const ORDER_OPERATIONS = {
  list: operation('marketplace.orders.list', { query: orderListQuery }),
  get: operation('marketplace.orders.get', { params: uuidParams }),
  create: operation('marketplace.orders.create', { query: createOrderQuery, body: createOrderBody }),
  /** The order's marketplace resource (`GET /api/marketplace-orders/{uuid}/resource/`). */
  resource: operation('marketplace.orders.resource', { params: uuidParams }),
  approveByConsumer: operation('marketplace.orders.approve-by-consumer', { params: uuidParams }),
  rejectByConsumer: operation('marketplace.orders.reject-by-consumer', { params: uuidParams }),
  approveByProvider: operation('marketplace.orders.approve-by-provider', { params: uuidParams }),
  rejectByProvider: operation('marketplace.orders.reject-by-provider', { params: uuidParams }),
  cancel: operation('marketplace.orders.cancel', { params: uuidParams }),
  /** ERRED → executing, as Waldur's `set_state_executing`: the adapter tries again. */
  retry: operation('marketplace.orders.retry', { params: uuidParams }),
  /** A `Marketplace.Basic` order completed by its provider by hand. */
  setStateDone: operation('marketplace.orders.set-state-done', { params: uuidParams }),
  setStateErred: operation('marketplace.orders.set-state-erred', {
    params: uuidParams,
    body: setStateErredBody,
  }),
};

export const resourceListQuery = z.object({
  ...paginationQuery,
  offering_uuid: z.uuid({ error: messages.uuid }).optional(),
  project_uuid: z.uuid({ error: messages.uuid }).optional(),
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
  state: z.enum(RESOURCE_STATES, { error: `Must be one of: ${RESOURCE_STATES.join(', ')}.` }).optional(),
  name: text(150, { blank: true }).optional().meta({ description: 'Name contains (case-insensitive)' }),
});

export const terminateResourceBody = z.strictObject({ attributes: orderAttributes.default({}) });
export const updateLimitsBody = z.strictObject({ limits: orderLimits });
/** Waldur's `end_date`: an ISO date or date-time with its offset, or null to remove it. */
export const setEndDateBody = z.strictObject({
  end_date: z.union([z.string({ error: messages.string }).max(40, messages.maxLength(40)), z.null()]),
});

/** What `terminate` and `update_limits` answer: the order they created. */
export const orderCreatedViewSchema = z.object({ order_uuid: z.uuid() });
export type OrderCreatedView = z.infer<typeof orderCreatedViewSchema>;

export const RESOURCE_OPERATIONS = {
  list: operation('marketplace.resources.list', { query: resourceListQuery }),
  get: operation('marketplace.resources.get', { params: uuidParams }),
  /** A Terminate order for the resource (`POST /api/marketplace-resources/{uuid}/terminate/`). */
  terminate: operation('marketplace.resources.terminate', {
    params: uuidParams,
    body: terminateResourceBody,
  }),
  /** An Update order with new limits (`POST /api/marketplace-resources/{uuid}/update_limits/`). */
  updateLimits: operation('marketplace.resources.update-limits', {
    params: uuidParams,
    body: updateLimitsBody,
  }),
  /** When the system terminates the resource (`POST /api/marketplace-resources/{uuid}/set_end_date/`). */
  setEndDate: operation('marketplace.resources.set-end-date', { params: uuidParams, body: setEndDateBody }),
};
