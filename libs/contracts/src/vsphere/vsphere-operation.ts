import { z } from 'zod';
import { operationsWithCaller, type Operation } from '../identity/operation';

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

/** One request the vSphere adapter answers for the gateway, with the vSphere caller context. */
export type VsphereOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = Operation<
  P,
  Q,
  B,
  typeof vsphereCallerSchema
>;

/** Like `operation()` of the order service's requests, with the vSphere caller context. */
export const vsphereOperation = operationsWithCaller(vsphereCallerSchema);
