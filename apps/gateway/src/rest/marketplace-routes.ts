import {
  API_PATHS,
  providerOfferingActionPath,
  estimateViewSchema,
  offeringViewSchema,
  planViewSchema,
  PLAN_OPERATIONS as PLANS,
  PROVIDER_OFFERING_OPERATIONS as PROVIDER,
  PUBLIC_OFFERING_OPERATIONS as PUBLIC,
  SERVICE_SETTINGS_GET,
  serviceSettingsViewSchema,
  type ServiceSettingsView,
  type EstimateView,
  type OfferingView,
  type PlanView,
} from '@app/contracts';
import { z } from 'zod';
import { offeringScope, offeringScopeUuid, type Links } from './links';
import { model } from './openapi-models';
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
    scope: offeringScope(view, links),
    scope_uuid: offeringScopeUuid(view),
  });
}

// One plan and one offering, each under the names Waldur gives it where it appears (a client generated
// from Waldur's document reads `offering.plans` as `BasePublicPlan` from a public offering).
const planLinks = { url: z.url(), offering: z.url() };
const planSchema = (name: string) => model(name, planViewSchema.extend(planLinks));
const offeringSchema = (name: string, plans: z.ZodType) =>
  model(
    name,
    offeringViewSchema.extend({
      url: z.url(),
      customer: z.url(),
      plans: z.array(plans),
      /** The service settings (the vCenter integration), null for an offering processed by hand. */
      scope: z.url().nullable(),
      /** Their uuid: what the vmware-* lists' `settings_uuid` takes. */
      scope_uuid: z.uuid().nullable(),
    }),
  );

const providerOfferingSchema = offeringSchema('ProviderOfferingDetails', planSchema('BaseProviderPlan'));
const providerOffering: Presenter<OfferingView> = {
  schema: providerOfferingSchema,
  present: presentOffering('marketplace-provider-offerings'),
};
/** A plan as an active offering lists it (Waldur's `BasePublicPlan`): its routes under the offering answer it too. */
export const publicPlan: Presenter<PlanView> = { schema: planSchema('BasePublicPlan'), present: presentPlan };
const publicOffering: Presenter<OfferingView> = {
  schema: offeringSchema('PublicOfferingDetails', publicPlan.schema),
  present: presentOffering('marketplace-public-offerings'),
};
/** A plan at `/api/marketplace-plans/` (Waldur's `ProviderPlanDetails`). */
const plan: Presenter<PlanView> = { schema: planSchema('ProviderPlanDetails'), present: presentPlan };
/** Service settings with their own `url` and their provider's (Waldur's `ServiceSettings`). */
const serviceSettings: Presenter<ServiceSettingsView> = {
  schema: model('ServiceSettings', serviceSettingsViewSchema.extend({ url: z.url(), customer: z.url() })),
  present: (view, links) => ({
    url: links.resource('service-settings', view.uuid),
    ...view,
    customer: links.resource('customers', view.customer_uuid),
  }),
};
const estimate: Presenter<EstimateView> = {
  schema: model('PlanEstimate', estimateViewSchema),
  present: (view) => view,
};
/** The integration as the vSphere adapter reports it (never the password). */
const integration: Presenter<Record<string, unknown>> = {
  schema: model('OfferingIntegration', z.record(z.string(), z.unknown())),
  present: (view) => view,
};

const PROVIDER_BASE = API_PATHS.providerOfferings;
const PROVIDER_ITEM = API_PATHS.providerOffering;
const tag = 'marketplace';

const ACTION_DETAIL = {
  activate: 'Offering has been activated.',
  pause: 'Offering has been paused.',
  archive: 'Offering has been archived.',
} as const;

// Waldur answers an offering action with DetailState (`detail`); we answer the offering with it.
const offeringWithDetail = model(
  'ProviderOfferingDetailsWithState',
  providerOfferingSchema.extend({ detail: z.string() }),
);

/** The offering after the action, with Waldur's `detail` (its DetailState answer is detail and state). */
function providerAction(
  action: 'activate' | 'pause' | 'archive',
  operation: (typeof PROVIDER)['activate'],
  summary: string,
): ApiRoute {
  const withDetail: Presenter<OfferingView> = {
    schema: offeringWithDetail,
    present: (view, links) => ({ ...providerOffering.present(view, links), detail: ACTION_DETAIL[action] }),
  };
  return route(
    'post',
    providerOfferingActionPath(action),
    operation,
    { operationId: `marketplace_provider_offerings_${action}`, summary, tag },
    { resource: withDetail },
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
      idempotent: true,
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
    API_PATHS.publicOfferingPlans,
    PUBLIC.plans,
    { operationId: 'marketplace_public_offerings_plans_list', summary: "An active offering's plans", tag },
    { resource: publicPlan, list: true },
  ),
  route(
    'get',
    API_PATHS.publicOfferingPlan,
    PUBLIC.plan,
    {
      operationId: 'marketplace_public_offerings_plans_retrieve',
      summary: "A plan of an active offering (where every plan's url points)",
      tag,
    },
    { resource: publicPlan },
  ),
  route(
    'get',
    API_PATHS.serviceSettings,
    SERVICE_SETTINGS_GET,
    {
      operationId: 'service_settings_retrieve',
      summary:
        "An offering's service settings: a vSphere offering's vCenter integration (never its credentials)",
      tag: 'service-settings',
    },
    { resource: serviceSettings },
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
