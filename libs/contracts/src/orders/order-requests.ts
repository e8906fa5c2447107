import { z } from 'zod';

/**
 * The backbone's bare order path over core NATS, without a caller: what the fault suite drives the
 * event flow with. Not routed by the gateway; the public order path is `ORDER_OPERATIONS`.
 */
export const ORDER_PATTERNS = {
  createOffering: 'marketplace.backbone-offerings.create',
  createOrder: 'marketplace.backbone-orders.create',
  getOrder: 'marketplace.backbone-orders.get',
} as const;

export const createOfferingRequestSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'This field may not be blank.')
    .max(150, 'Ensure this field has no more than 150 characters.'),
  type: z.string().min(1, 'This field may not be blank.').max(100),
});
export type CreateOfferingRequest = z.infer<typeof createOfferingRequestSchema>;

/** The answer to `marketplace.offerings.create`, the bare internal path (no caller) kept for the backbone tests. */
export interface OfferingSummary {
  uuid: string;
  name: string;
  type: string;
  created: string;
}

export const createOrderRequestSchema = z.strictObject({
  offering_uuid: z.uuid('Must be a valid UUID.'),
  project_uuid: z.uuid('Must be a valid UUID.'),
  type: z.enum(['Create', 'Update', 'Terminate']).default('Create'),
  attributes: z.record(z.string(), z.unknown()).default({}),
  limits: z
    .record(z.string(), z.number().int().nonnegative('Ensure this value is greater than or equal to 0.'))
    .default({}),
});
export type CreateOrderRequest = z.input<typeof createOrderRequestSchema>;

export const getOrderRequestSchema = z.strictObject({ uuid: z.uuid('Must be a valid UUID.') });

export type BackboneOrderState =
  'pending-consumer' | 'pending-provider' | 'executing' | 'done' | 'erred' | 'canceled' | 'rejected';

export interface BackboneOrderView {
  uuid: string;
  type: 'Create' | 'Update' | 'Terminate';
  state: BackboneOrderState;
  offering_uuid: string;
  project_uuid: string;
  marketplace_resource_uuid: string;
  resource_uuid: string | null;
  attributes: Record<string, unknown>;
  limits: Record<string, number>;
  error_message: string;
  created: string;
  modified: string;
  completed_at: string | null;
}
