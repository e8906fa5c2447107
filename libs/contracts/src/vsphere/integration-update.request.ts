import { z } from 'zod';
import { messages } from '../identity/wire-fields';
import { serviceAttributesSchema } from './service-attributes';

/**
 * `vsphere-internal.integration.update`: core NATS request-reply, asked by the order service for
 * `POST /api/marketplace-provider-offerings/{uuid}/update_integration/` after it checked that the
 * caller may manage the offering; answered by the vSphere adapter, which owns the credentials.
 * Creates the integration on first use, applies the given fields (one at a time works), stores the
 * password encrypted, starts a synchronisation (coalesced with a running one) and answers with the
 * integration's view (RequestReply<IntegrationView>). 400 names a bad field
 * (`{"service_attributes.backend_url": ["Enter a valid URL."]}`), also a backend_url whose address
 * the operator's `VCENTER_ALLOWED_NETWORKS` does not allow (loopback, private, link-local, … by
 * default), with the rule. A new backend_url or username saved without a password clears the
 * stored one: a password is bound to the backend_url it was saved with and sent nowhere else.
 */
export const INTEGRATION_UPDATE_PATTERN = 'vsphere-internal.integration.update';

export const integrationUpdateRequestSchema = z.strictObject({
  offering_uuid: z.uuid({ error: messages.uuid }),
  /** The offering's customer (its provider): the adapter's events carry it so SSE reaches its owners. */
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
  service_attributes: serviceAttributesSchema,
});
export type IntegrationUpdateRequest = z.input<typeof integrationUpdateRequestSchema>;
