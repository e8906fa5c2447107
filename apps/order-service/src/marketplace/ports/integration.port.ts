import type { RequestReply } from '@app/contracts';

/**
 * What the order service knows of an offering's connection to its provider's system. The vSphere
 * adapter owns credentials and inventory; the order service only asks, and passes the provider's
 * settings through without reading or storing them (the password never touches this service's
 * database).
 */
export interface IntegrationSummary {
  /** `OK` once the credentials work and a synchronisation succeeded; `ERRED` with the reason otherwise. */
  state: string;
  error_message: string;
  [field: string]: unknown;
}

export interface IntegrationPort {
  get(offeringUuid: string): Promise<RequestReply<IntegrationSummary>>;
  /** `customerUuid`: the offering's customer, which the adapter's events name as the provider. */
  update(
    offeringUuid: string,
    customerUuid: string,
    serviceAttributes: Record<string, unknown>,
  ): Promise<RequestReply<IntegrationSummary>>;
  sync(offeringUuid: string): Promise<RequestReply<IntegrationSummary>>;
}

export const INTEGRATION_PORT = Symbol('IntegrationPort');
