import { operation } from '../identity/operation';

/**
 * `marketplace.callers.context`: the caller as services without users of their own need them — staff
 * or not, and the customers (organisations) they belong to as owner or through a project role.
 * Asked by the gateway before it asks the vSphere adapter, answered by the order service with
 * RequestReply<VsphereCaller>.
 */
export const CALLER_CONTEXT = operation('marketplace.callers.context', {});
