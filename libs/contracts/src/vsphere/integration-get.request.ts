import { z } from 'zod';
import { messages } from '../identity/wire-fields';

/**
 * `vsphere-internal.integration.get`: core NATS request-reply, asked by the order service (for the
 * provider who manages the offering; no other app may send it); answered by the vSphere adapter with RequestReply<IntegrationView>:
 * state, sync state, time of the last success, counts, last error. 404 when the offering has no
 * integration yet.
 */
export const INTEGRATION_GET_PATTERN = 'vsphere-internal.integration.get';

export const integrationGetRequestSchema = z.strictObject({
  offering_uuid: z.uuid({ error: messages.uuid }),
});
export type IntegrationGetRequest = z.infer<typeof integrationGetRequestSchema>;
