import { z } from 'zod';

/**
 * Who asks the vSphere adapter, as the gateway resolved it from the order service: the user, whether
 * they are staff, and the customers (organisations) they belong to. The adapter owns no users: it
 * decides visibility from this context alone (staff see everything; others see what is assigned to
 * their customers, or the seed's defaults).
 */
export const vsphereCallerSchema = z.strictObject({
  user_uuid: z.uuid(),
  is_staff: z.boolean(),
  customer_uuids: z.array(z.uuid()).max(10_000),
});
export type VsphereCaller = z.infer<typeof vsphereCallerSchema>;

const noParams = z.strictObject({});
const noQuery = z.object({});
const noBody = z.strictObject({});

/**
 * One request the vSphere adapter answers for the gateway: a NATS pattern and the HTTP parts it is
 * made of, like `operation()` of the identity requests but with the vSphere caller context. The
 * gateway validates each part as it arrives; the adapter validates the whole `request` again.
 */
export interface VsphereOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  readonly pattern: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly request: z.ZodObject<{ caller: typeof vsphereCallerSchema; params: P; query: Q; body: B }>;
}

export type VsphereOperationRequest<O> =
  O extends VsphereOperation<infer P, infer Q, infer B>
    ? { caller: VsphereCaller; params: z.output<P>; query: z.output<Q>; body: z.output<B> }
    : never;

/** The raw parts as the gateway forwards them. */
export interface VsphereOperationPayload {
  caller: VsphereCaller;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export function vsphereOperation<
  P extends z.ZodType = typeof noParams,
  Q extends z.ZodType = typeof noQuery,
  B extends z.ZodType = typeof noBody,
>(pattern: string, parts: { params?: P; query?: Q; body?: B }): VsphereOperation<P, Q, B> {
  const params = (parts.params ?? noParams) as P;
  const query = (parts.query ?? noQuery) as Q;
  const body = (parts.body ?? noBody) as B;
  return {
    pattern,
    params,
    query,
    body,
    request: z.strictObject({ caller: vsphereCallerSchema, params, query, body }),
  };
}
