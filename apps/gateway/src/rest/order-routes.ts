import {
  API_PATHS,
  orderActionPath,
  orderCreatedViewSchema,
  orderDraftViewSchema,
  orderViewSchema,
  ORDER_OPERATIONS as ORDERS,
  RESOURCE_OPERATIONS as RESOURCES,
  resourceViewSchema,
  type OrderCreatedView,
  type OrderDraftView,
  type OrderAction,
  type OrderView,
  type ResourceView,
} from '@app/contracts';
import { z } from 'zod';
import { present, type Links } from './links';
import { model } from './openapi-models';
import { apiRoute as route, type AnyOperation, type ApiRoute, type Presenter } from './route';

const url = z.url();
const orderSchema = model(
  'OrderDetails',
  orderViewSchema.extend({
    url,
    offering: url,
    plan: url.nullable(),
    project: url,
    customer: url,
    marketplace_resource: url,
    created_by: url.nullable(),
  }),
);
const resourceSchema = model(
  'Resource',
  resourceViewSchema.extend({
    url,
    backend_id: z.string(),
    offering: url,
    plan: url.nullable(),
    project: url,
    customer: url,
    /** The backend object (the VM), null until there is one. */
    scope: url.nullable(),
  }),
);
const draftSchema = model(
  'OrderDraft',
  orderDraftViewSchema.extend({
    offering: url,
    plan: url.nullable(),
    project: url,
    customer: url,
  }),
);

const order: Presenter<OrderView> = { schema: orderSchema, present: present.order };
const resource: Presenter<ResourceView> = { schema: resourceSchema, present: present.resource };
const created: Presenter<OrderCreatedView> = {
  schema: model('OrderUUID', orderCreatedViewSchema),
  present: (view) => view,
};

/** The order a dry run would create: no uuid or url yet, the links it would have. */
function presentDraft(view: OrderDraftView, links: Links) {
  return {
    ...view,
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    plan: view.plan_uuid === null ? null : links.resource('marketplace-plans', view.plan_uuid),
    project: links.resource('projects', view.project_uuid),
    customer: links.resource('customers', view.customer_uuid),
  };
}

const ORDERS_BASE = API_PATHS.orders;
const ORDER_ITEM = API_PATHS.order;
const RESOURCES_BASE = API_PATHS.resources;
const RESOURCE_ITEM = API_PATHS.resource;
const tag = 'marketplace-orders';

/** What Waldur's order actions say in `detail` (its OrderInfoResponse), besides the order itself. */
const ACTION_DETAIL: Record<OrderAction, string> = {
  approve_by_consumer: 'Order has been approved by the consumer.',
  reject_by_consumer: 'Order has been rejected by the consumer.',
  approve_by_provider: 'Order has been approved by the provider.',
  reject_by_provider: 'Order has been rejected by the provider.',
  cancel: 'Order has been canceled.',
  retry: 'Order has been submitted again.',
  set_state_done: 'Order has been marked as done.',
  set_state_erred: 'Order has been marked as erred.',
};

// Waldur answers an order action with OrderInfoResponse (`detail`); we answer the order with it.
const orderWithDetail = model('OrderDetailsWithInfo', orderSchema.extend({ detail: z.string() }));

function orderAction(action: OrderAction, operation: AnyOperation, summary: string): ApiRoute {
  const withDetail: Presenter<OrderView> = {
    schema: orderWithDetail,
    present: (view, links) => ({ ...present.order(view, links), detail: ACTION_DETAIL[action] }),
  };
  return route(
    'post',
    orderActionPath(action),
    operation,
    { operationId: `marketplace_orders_${action}`, summary, tag },
    { resource: withDetail },
  );
}

const createOrder = route(
  'post',
  ORDERS_BASE,
  ORDERS.create,
  {
    operationId: 'marketplace_orders_create',
    summary: 'Order from an offering (`?dry_run=true` validates and creates nothing)',
    tag,
    status: 201,
    idempotent: true,
  },
  { resource: order },
);

/** Orders and marketplace resources: Waldur's `/api/marketplace-orders/` and `/api/marketplace-resources/`. */
export const ORDER_ROUTES: readonly ApiRoute[] = [
  route(
    'get',
    ORDERS_BASE,
    ORDERS.list,
    { operationId: 'marketplace_orders_list', summary: 'Orders the caller may see', tag },
    { resource: order, list: true },
  ),
  {
    ...createOrder,
    dryRun: { flag: 'dry_run', status: 200, schema: draftSchema, present: presentDraft },
  },
  route(
    'get',
    ORDER_ITEM,
    ORDERS.get,
    { operationId: 'marketplace_orders_retrieve', summary: 'An order', tag },
    { resource: order },
  ),
  route(
    'get',
    API_PATHS.orderResource,
    ORDERS.resource,
    { operationId: 'marketplace_orders_resource', summary: "The order's marketplace resource", tag },
    { resource },
  ),
  orderAction('approve_by_consumer', ORDERS.approveByConsumer, 'Approve as the consumer (pending-consumer)'),
  orderAction('reject_by_consumer', ORDERS.rejectByConsumer, 'Reject as the consumer (pending-consumer)'),
  orderAction('approve_by_provider', ORDERS.approveByProvider, 'Approve as the provider (pending-provider)'),
  orderAction('reject_by_provider', ORDERS.rejectByProvider, 'Reject as the provider (pending-provider)'),
  orderAction('cancel', ORDERS.cancel, 'Cancel a Marketplace.Basic order not yet done'),
  orderAction('retry', ORDERS.retry, 'Carry out an erred order again (erred → executing)'),
  orderAction('set_state_done', ORDERS.setStateDone, 'Complete a Marketplace.Basic order by hand (provider)'),
  orderAction('set_state_erred', ORDERS.setStateErred, 'Fail a Marketplace.Basic order by hand (provider)'),
  route(
    'get',
    RESOURCES_BASE,
    RESOURCES.list,
    { operationId: 'marketplace_resources_list', summary: 'Marketplace resources the caller may see', tag },
    { resource, list: true },
  ),
  route(
    'get',
    RESOURCE_ITEM,
    RESOURCES.get,
    { operationId: 'marketplace_resources_retrieve', summary: 'A marketplace resource', tag },
    { resource },
  ),
  route(
    'post',
    API_PATHS.resourceTerminate,
    RESOURCES.terminate,
    {
      operationId: 'marketplace_resources_terminate',
      summary: 'Order its termination',
      tag,
      idempotent: true,
    },
    { resource: created },
  ),
  route(
    'post',
    API_PATHS.resourceUpdateLimits,
    RESOURCES.updateLimits,
    {
      operationId: 'marketplace_resources_update_limits',
      summary: 'Order new limits (cpu and ram; disks cannot change this way)',
      tag,
      idempotent: true,
    },
    { resource: created },
  ),
  route(
    'post',
    `${RESOURCE_ITEM}set_end_date/`,
    RESOURCES.setEndDate,
    {
      operationId: 'marketplace_resources_set_end_date',
      summary: "Set or remove when the system terminates it (within the offering's maximum lease)",
      tag,
    },
    { resource },
  ),
];
