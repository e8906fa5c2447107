import {
  API_PATHS,
  providerOfferingActionPath,
  estimateViewSchema,
  offeringViewSchema,
  planViewSchema,
  PLAN_OPERATIONS as PLANS,
  PROVIDER_OFFERING_OPERATIONS as PROVIDER,
  PUBLIC_OFFERING_OPERATIONS as PUBLIC,
  type EstimateView,
  type OfferingView,
  type PlanView,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import { apiRoute as route, type ApiRoute, type Presenter } from './route';

/** A plan's public form: its own URL under the public offering, as the seed's order bodies give it. */
function presentPlan(view: PlanView, links: Links) {
  return {
    url: `${links.resource('marketplace-public-offerings', view.offering_uuid)}plans/${view.uuid}/`,
    ...view,
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
  };
}

function presentOffering(collection: string) {
  return (view: OfferingView, links: Links) => ({
    url: links.resource(collection, view.uuid),
    ...view,
    customer: links.resource('customers', view.customer_uuid),
    plans: view.plans.map((plan) => presentPlan(plan, links)),
  });
}

const planLinks = { url: z.url(), offering: z.url() };
const planSchema = planViewSchema.extend(planLinks);
const offeringSchema = offeringViewSchema.extend({
  url: z.url(),
  customer: z.url(),
  plans: z.array(planSchema),
});

const providerOffering: Presenter<OfferingView> = {
  schema: offeringSchema,
  present: presentOffering('marketplace-provider-offerings'),
};
const publicOffering: Presenter<OfferingView> = {
  schema: offeringSchema,
  present: presentOffering('marketplace-public-offerings'),
};
const plan: Presenter<PlanView> = { schema: planSchema, present: presentPlan };
const estimate: Presenter<EstimateView> = { schema: estimateViewSchema, present: (view) => view };
/** The integration as the vSphere adapter reports it (never the password). */
const integration: Presenter<Record<string, unknown>> = {
  schema: z.record(z.string(), z.unknown()),
  present: (view) => view,
};

const PROVIDER_BASE = API_PATHS.providerOfferings;
const PROVIDER_ITEM = API_PATHS.providerOffering;
const tag = 'marketplace';

function providerAction(
  action: 'activate' | 'pause' | 'archive',
  operation: (typeof PROVIDER)['activate'],
  summary: string,
): ApiRoute {
  return route(
    'post',
    providerOfferingActionPath(action),
    operation,
    { operationId: `marketplace_provider_offerings_${action}`, summary, tag },
    { resource: providerOffering },
  );
}

/** Offerings and plans: what providers publish and customers order from. */
export const MARKETPLACE_ROUTES: readonly ApiRoute[] = [
  route(
    'get',
    PROVIDER_BASE,
    PROVIDER.list,
    { operationId: 'marketplace_provider_offerings_list', summary: "The caller's providers' offerings", tag },
    { resource: providerOffering, list: true },
  ),
  route(
    'post',
    PROVIDER_BASE,
    PROVIDER.create,
    {
      operationId: 'marketplace_provider_offerings_create',
      summary: 'Create an offering (Draft)',
      tag,
      status: 201,
    },
    { resource: providerOffering },
  ),
  route(
    'get',
    PROVIDER_ITEM,
    PROVIDER.get,
    { operationId: 'marketplace_provider_offerings_retrieve', summary: "A provider's offering", tag },
    { resource: providerOffering },
  ),
  route(
    'patch',
    PROVIDER_ITEM,
    PROVIDER.update,
    { operationId: 'marketplace_provider_offerings_partial_update', summary: 'Describe an offering', tag },
    { resource: providerOffering },
  ),
  providerAction('activate', PROVIDER.activate, 'Publish an offering (vSphere: while its integration is OK)'),
  providerAction('pause', PROVIDER.pause, 'Stop taking new orders'),
  providerAction('archive', PROVIDER.archive, 'Archive an offering for good'),
  route(
    'post',
    providerOfferingActionPath('update_integration'),
    PROVIDER.updateIntegration,
    {
      operationId: 'marketplace_provider_offerings_update_integration',
      summary: 'Save vCenter settings (service_attributes; one field at a time works) and synchronise',
      tag,
    },
    { resource: integration },
  ),
  route(
    'post',
    providerOfferingActionPath('sync'),
    PROVIDER.sync,
    {
      operationId: 'marketplace_provider_offerings_sync',
      summary: 'Synchronise the inventory from vCenter now',
      tag,
      status: 202,
    },
    { resource: integration },
  ),
  route(
    'get',
    providerOfferingActionPath('integration'),
    PROVIDER.integration,
    {
      operationId: 'marketplace_provider_offerings_integration',
      summary:
        'The vCenter integration: state, last synchronisation, counts, skipped objects (never the password)',
      tag,
    },
    { resource: integration },
  ),
  route(
    'get',
    API_PATHS.publicOfferings,
    PUBLIC.list,
    { operationId: 'marketplace_public_offerings_list', summary: 'Active offerings with their plans', tag },
    { resource: publicOffering, list: true },
  ),
  route(
    'get',
    API_PATHS.publicOffering,
    PUBLIC.get,
    { operationId: 'marketplace_public_offerings_retrieve', summary: 'An active offering', tag },
    { resource: publicOffering },
  ),
  route(
    'get',
    API_PATHS.plans,
    PLANS.list,
    { operationId: 'marketplace_plans_list', summary: 'Plans of active offerings and of your own', tag },
    { resource: plan, list: true },
  ),
  route(
    'get',
    API_PATHS.plan,
    PLANS.get,
    { operationId: 'marketplace_plans_retrieve', summary: 'A plan', tag },
    { resource: plan },
  ),
  route(
    'post',
    `${API_PATHS.plan}update_prices/`,
    PLANS.updatePrices,
    {
      operationId: 'marketplace_plans_update_prices',
      summary: 'Set the price of components (per unit and month)',
      tag,
    },
    { resource: plan },
  ),
  route(
    'post',
    `${API_PATHS.plan}estimate/`,
    PLANS.estimate,
    { operationId: 'marketplace_plans_estimate', summary: 'Monthly cost of the given limits', tag },
    { resource: estimate },
  ),
];
