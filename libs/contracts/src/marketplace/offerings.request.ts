import { z } from 'zod';
import { operation, paginationQuery, uuidParams } from '../identity/operation';
import { hyperlink, messages, queryText, text } from '../identity/wire-fields';
import { OFFERING_STATES, OFFERING_TYPES } from './offering-types';

/**
 * Offerings and their plans: core NATS request-reply, asked by the gateway for
 * `/api/marketplace-provider-offerings/` (a provider's own), `/api/marketplace-public-offerings/`
 * (what customers may order) and `/api/marketplace-plans/`, answered by the order service.
 */

/** A price per measured unit: a non-negative decimal with at most 4 places, as a string or a number. */
export const price = z
  .union([z.number(), z.string()], { error: 'A valid number is required.' })
  .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
  .pipe(
    z
      .string()
      .max(32, { error: 'Ensure the price is a number ≥ 0 with at most 4 decimal places.', abort: true })
      .regex(/^\d{1,12}(\.\d{1,4})?$/, 'Ensure the price is a number ≥ 0 with at most 4 decimal places.'),
  );

export const componentViewSchema = z.object({
  type: z.string(),
  name: z.string(),
  measured_unit: z.string(),
  billing_type: z.literal('limit'),
  factor: z.number().int(),
});

export const planViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  offering_uuid: z.uuid(),
  unit: z.literal('month'),
  /** Price per measured unit of each component, e.g. `{"cpu": "5.0000"}`. */
  prices: z.record(z.string(), z.string()),
  archived: z.boolean(),
});
export type PlanView = z.infer<typeof planViewSchema>;

export const offeringViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  type: z.enum(OFFERING_TYPES),
  state: z.enum(OFFERING_STATES),
  customer_uuid: z.uuid(),
  customer_name: z.string(),
  terms_of_service: z.string(),
  /** How many days ahead a resource's end date may be set (Waldur's plugin option); null: no limit. */
  max_resource_termination_offset_in_days: z.number().int().nullable().optional(),
  components: z.array(componentViewSchema),
  plans: z.array(planViewSchema),
  created: z.iso.datetime({ offset: true }),
});
export type OfferingView = z.infer<typeof offeringViewSchema>;

const offeringFields = {
  name: text(150),
  description: text(2000, { blank: true }),
  category: text(150, { blank: true }),
  terms_of_service: text(10_000, { blank: true }),
};

export const createOfferingBody = z.strictObject({
  ...offeringFields,
  description: offeringFields.description.default(''),
  category: offeringFields.category.default(''),
  terms_of_service: offeringFields.terms_of_service.default(''),
  type: z.enum(OFFERING_TYPES, { error: `Must be one of: ${OFFERING_TYPES.join(', ')}.` }),
  customer: hyperlink('customers'),
});
export const updateOfferingBody = z
  .strictObject({
    ...offeringFields,
    max_resource_termination_offset_in_days: z
      .number({ error: messages.integer })
      .int(messages.integer)
      .min(1, messages.minValue(1))
      .max(36_500, messages.maxValue(36_500))
      .nullable(),
  })
  .partial();

export const offeringListQuery = z.object({
  ...paginationQuery,
  // Any type name, as Waldur's loose filter takes it: a type this marketplace has no offerings of
  // (`Marketplace.Slurm`) lists none rather than being refused, so a client written for Waldur works.
  type: queryText(150)
    .optional()
    .meta({ description: `Offering type, e.g. ${OFFERING_TYPES.join(', ')}` }),
  state: z.enum(OFFERING_STATES).optional(),
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
  name: queryText(150).optional().meta({ description: 'Name contains (case-insensitive)' }),
});

/** The vSphere integration settings the provider saves, passed to the vSphere adapter as they are. */
export const updateIntegrationBody = z.strictObject({
  service_attributes: z.record(z.string(), z.unknown(), { error: 'Must be an object.' }),
});

export const PROVIDER_OFFERING_OPERATIONS = {
  list: operation('marketplace.provider-offerings.list', { query: offeringListQuery }),
  get: operation('marketplace.provider-offerings.get', { params: uuidParams }),
  create: operation('marketplace.provider-offerings.create', { body: createOfferingBody }),
  update: operation('marketplace.provider-offerings.update', {
    params: uuidParams,
    body: updateOfferingBody,
  }),
  activate: operation('marketplace.provider-offerings.activate', { params: uuidParams }),
  pause: operation('marketplace.provider-offerings.pause', { params: uuidParams }),
  archive: operation('marketplace.provider-offerings.archive', { params: uuidParams }),
  updateIntegration: operation('marketplace.provider-offerings.update-integration', {
    params: uuidParams,
    body: updateIntegrationBody,
  }),
  sync: operation('marketplace.provider-offerings.sync', { params: uuidParams }),
  integration: operation('marketplace.provider-offerings.integration', { params: uuidParams }),
};

/** A plan under its public offering (Waldur's `/api/marketplace-public-offerings/{uuid}/plans/{plan_uuid}/`). */
export const offeringPlanParams = z.strictObject({
  uuid: z.uuid({ error: messages.uuid }),
  plan_uuid: z.uuid({ error: messages.uuid }),
});

/**
 * The catalogue: Active offerings, and their plans (not archived) under them, as Waldur's
 * `marketplace_public_offerings_plans_list|retrieve` serve them: the same plan views as
 * `/api/marketplace-plans/`, with the offering's visibility (nobody sees a Draft one here).
 */
export const PUBLIC_OFFERING_OPERATIONS = {
  list: operation('marketplace.public-offerings.list', { query: offeringListQuery.omit({ state: true }) }),
  get: operation('marketplace.public-offerings.get', { params: uuidParams }),
  plans: operation('marketplace.public-offerings.plans.list', {
    params: uuidParams,
    query: z.object(paginationQuery),
  }),
  plan: operation('marketplace.public-offerings.plans.get', { params: offeringPlanParams }),
};

export const planListQuery = z.object({
  ...paginationQuery,
  offering_uuid: z.uuid({ error: messages.uuid }).optional(),
});

export const updatePricesBody = z.strictObject({ prices: z.record(z.string().max(50), price) });

export const estimateBody = z.strictObject({
  limits: z.record(
    z.string().max(50),
    z.number({ error: messages.integer }).int(messages.integer).min(0, messages.minValue(0)).max(1e9),
  ),
});
export const estimateViewSchema = z.object({
  monthly_cost: z.string(),
  limits: z.record(z.string(), z.number()),
});
export type EstimateView = z.infer<typeof estimateViewSchema>;

export const PLAN_OPERATIONS = {
  list: operation('marketplace.plans.list', { query: planListQuery }),
  get: operation('marketplace.plans.get', { params: uuidParams }),
  updatePrices: operation('marketplace.plans.update-prices', { params: uuidParams, body: updatePricesBody }),
  estimate: operation('marketplace.plans.estimate', { params: uuidParams, body: estimateBody }),
};
