import type { z } from 'zod';
import { callerSchema, operationsWithCaller, type Operation } from '../identity/operation';
import { type CallerContext } from '../marketplace/caller-context.request';

/**
 * Who asks the vSphere adapter, once it resolved the token the gateway forwarded: the order
 * service's `CallerContext` (staff or not, owned customers, project grants). The adapter owns no
 * users and trusts no caller the gateway asserts: it asks `callers.context` with the token and
 * decides with the shared access policy (`identity/access-policy.ts`) from the answer alone.
 */
export type VsphereCaller = CallerContext;

/**
 * One request the vSphere adapter answers for the gateway: the caller is the user's token (as for
 * the order service), resolved by the adapter itself.
 */
export type VsphereOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = Operation<
  P,
  Q,
  B,
  typeof callerSchema
>;

/** Like `operation()` of the order service's requests. */
export const vsphereOperation = operationsWithCaller(callerSchema);
