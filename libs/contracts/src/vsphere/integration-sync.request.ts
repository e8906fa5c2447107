import { z } from 'zod';
import { messages } from '../identity/wire-fields';
import type { IntegrationState } from './integration-view';

/**
 * `vsphere-internal.integration.sync`: core NATS request-reply, asked by the order service for
 * `POST /api/marketplace-provider-offerings/{uuid}/sync/`; answered by the vSphere adapter with
 * RequestReply<IntegrationSyncAccepted> as soon as the request is recorded (the synchronisation runs
 * after the answer; its end is the SyncFinished event). A request while a synchronisation runs is
 * coalesced into one more run after it. 404 when the offering has no integration yet.
 */
export const INTEGRATION_SYNC_PATTERN = 'vsphere-internal.integration.sync';

export const integrationSyncRequestSchema = z.strictObject({
  offering_uuid: z.uuid({ error: messages.uuid }),
});
export type IntegrationSyncRequest = z.infer<typeof integrationSyncRequestSchema>;

export interface IntegrationSyncAccepted {
  offering_uuid: string;
  /** Waldur's answer to `sync/`. */
  status: 'Synchronisation has been scheduled.';
  /** SCHEDULED, or SYNCING when a running synchronisation will be followed by one more. */
  sync_state: 'SCHEDULED' | 'SYNCING';
  /** The integration's state and error until this synchronisation ends (then: SyncFinished). */
  state: IntegrationState;
  error_message: string;
}
