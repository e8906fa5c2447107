import { z } from 'zod';
import { operation } from '../identity/operation';
import { vsphereCallerSchema } from '../vsphere/vsphere-operation';

/**
 * `marketplace.callers.context`: the caller as services without users of their own need them — staff
 * or not, and the customers (organisations) they belong to as owner or through a project role.
 * Asked by the gateway before it asks the vSphere adapter (which is told only the `VsphereCaller`
 * fields), and once per SSE subscriber at connect and after an AccessChanged naming the user, to
 * check each event in memory. Answered by the order service with RequestReply<CallerContext>.
 */
export const CALLER_CONTEXT = operation('marketplace.callers.context', {});

export const callerContextSchema = vsphereCallerSchema.extend({
  /** Projects the user holds a role in (any project role): their orders and resources are visible. */
  project_uuids: z.array(z.uuid()).max(10_000),
  /**
   * Customers the user owns: their projects' orders and resources, and, where the customer is a
   * service provider, the orders and resources of its offerings (`provider_uuid`) and its offerings
   * in any state. Empty for staff, who see everything.
   */
  owned_customer_uuids: z.array(z.uuid()).max(10_000),
});
export type CallerContext = z.infer<typeof callerContextSchema>;
