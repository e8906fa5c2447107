import { z } from 'zod';
import { operation, uuidParams } from '../identity/operation';

/**
 * An offering's service settings as Waldur's `service_settings_retrieve` shows them: for a vSphere
 * offering, its vCenter integration (one per offering, so keyed by the offering's uuid, which is
 * the offering's `scope_uuid` and the `settings_uuid` the vmware-* lists take). Named after the
 * offering and its provider, as Waldur's are; the credentials are never part of it.
 */
export const serviceSettingsViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  /** Waldur's service type of the settings. */
  type: z.literal('VMware'),
  customer_uuid: z.uuid(),
  customer_name: z.string(),
});
export type ServiceSettingsView = z.infer<typeof serviceSettingsViewSchema>;

/**
 * `marketplace.service-settings.get` (`/api/service-settings/{uuid}/`, where an offering's `scope`
 * points): core NATS request-reply, asked by the gateway with the caller's token, answered by the
 * order service with RequestReply<ServiceSettingsView>. Visible as the offering is (Active: every
 * signed-in user; otherwise its provider's owners and staff); 404 otherwise and for an offering
 * without service settings (one processed by hand).
 */
export const SERVICE_SETTINGS_GET = operation('marketplace.service-settings.get', { params: uuidParams });
