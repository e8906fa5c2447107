import { z } from 'zod';

/**
 * The public representations of orders and marketplace resources, with Waldur's field names: what
 * `GET /api/marketplace-orders/{uuid}/` and `GET /api/marketplace-resources/{uuid}/` return (the
 * gateway adds `url` and the hyperlinks), and what OrderStateChanged and ResourceStateChanged carry.
 */

export const ORDER_STATES = [
  'pending-consumer',
  'pending-provider',
  'executing',
  'done',
  'erred',
  'canceled',
  'rejected',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The states of an order still under way: it may yet be approved, rejected, canceled or carried out. */
export const PENDING_ORDER_STATES = [
  'pending-consumer',
  'pending-provider',
  'executing',
] as const satisfies readonly OrderState[];
export type PendingOrderState = (typeof PENDING_ORDER_STATES)[number];

const TERMINAL = ['done', 'erred', 'canceled', 'rejected'] as const satisfies readonly OrderState[];
export type TerminalOrderState = (typeof TERMINAL)[number];
/** Waldur's TERMINAL_STATES: an order here never moves again, except `erred` by `retry`. */
export const TERMINAL_ORDER_STATES: readonly OrderState[] = TERMINAL;

export const ORDER_TYPES = ['Create', 'Update', 'Terminate'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** The orders a resource's own actions make (`update_limits`, `terminate`). */
export type ChangeOrderType = Exclude<OrderType, 'Create'>;

export const RESOURCE_STATES = ['Creating', 'OK', 'Erred', 'Updating', 'Terminating', 'Terminated'] as const;
export type ResourceState = (typeof RESOURCE_STATES)[number];

const scopeFields = {
  offering_uuid: z.uuid(),
  offering_name: z.string(),
  offering_type: z.string(),
  project_uuid: z.uuid(),
  project_name: z.string(),
  customer_uuid: z.uuid(),
  customer_name: z.string(),
  plan_uuid: z.uuid().nullable(),
  plan_name: z.string().nullable(),
  /** The offering's customer: the provider who may review (and, for Basic, complete) the order. */
  provider_uuid: z.uuid(),
  provider_name: z.string(),
};

export const orderViewSchema = z.object({
  uuid: z.uuid(),
  type: z.enum(ORDER_TYPES),
  state: z.enum(ORDER_STATES),
  ...scopeFields,
  /** The marketplace resource the order creates, changes or terminates. */
  marketplace_resource_uuid: z.uuid(),
  /** The backend object (the VM's uuid in vCenter) once there is one: Waldur's `resource_uuid`. */
  resource_uuid: z.string().nullable(),
  resource_name: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  limits: z.record(z.string(), z.number()),
  /** Monthly cost of the limits under the plan's prices, two decimals; null without a plan. */
  cost: z.string().nullable(),
  error_message: z.string(),
  created_by_uuid: z.uuid().nullable(),
  created_by_username: z.string().nullable(),
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
  completed_at: z.iso.datetime({ offset: true }).nullable(),
});
export type OrderView = z.infer<typeof orderViewSchema>;

export const resourceViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  description: z.string(),
  state: z.enum(RESOURCE_STATES),
  ...scopeFields,
  /** The backend object's uuid (the VM's uuid in vCenter): Waldur's `resource_uuid`. */
  resource_uuid: z.string().nullable(),
  /** The backend's own id of the object (the VM's managed object id, `vm-42`). */
  backend_id: z.string().nullable(),
  /** The backend object's type, e.g. `VMware.VirtualMachine`. */
  resource_type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  limits: z.record(z.string(), z.number()),
  cost: z.string().nullable(),
  error_message: z.string(),
  /** Waldur's `end_date`: when the system terminates the resource (a Terminate order), or null. */
  // Optional: ResourceStateChanged carries this view, and a published event only gains optional fields.
  end_date: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Who set the end date last (Waldur's `end_date_requested_by`), or null. */
  end_date_requested_by_uuid: z.uuid().nullable().optional(),
  /** The warnings before the end date already given, as their lead times in seconds. */
  end_date_warnings: z.array(z.number().int()).optional(),
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
});
export type ResourceView = z.infer<typeof resourceViewSchema>;
