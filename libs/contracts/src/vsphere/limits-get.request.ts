import { z } from 'zod';
import { messages } from '../identity/wire-fields';
import { vsphereOperation } from './vsphere-operation';

/**
 * `vsphere.limits.get` (`/api/vmware-limits/{offering_uuid}/`): core NATS request-reply, asked by
 * the gateway for any authenticated caller (Waldur does not filter it by role), answered by the
 * vSphere adapter with RequestReply<LimitsView>. 404 when the offering has no integration.
 */
export const LIMITS_GET = vsphereOperation('vsphere.limits.get', {
  params: z.strictObject({ offering_uuid: z.uuid({ error: messages.uuid }) }),
});
