import type { QuotaGrowth, QuotaName, RequestReply } from '@app/contracts';

export const QUOTA_RESERVATION_PORT = Symbol('QuotaReservationPort');

/** Why the order service did not reserve: the quota the growth would pass and its message. */
export interface QuotaRefused {
  readonly quota: QuotaName;
  readonly message: string;
}

/**
 * The order service's quotas, for growth asked on a VM's own endpoints: reserved there (under the
 * same locks as orders) before the adapter queues the operation, released by the VmChanged that
 * ends the operation, or here when the operation was not queued after all.
 */
export interface QuotaReservationPort {
  /**
   * Reserves `growth` for the operation `operationUuid` on the marketplace resource: ok(null) when
   * reserved (or nothing to count), ok(refused) when a quota would be passed, 503 when the order
   * service does not answer.
   */
  reserve(
    operationUuid: string,
    marketplaceResourceUuid: string,
    growth: QuotaGrowth,
  ): Promise<RequestReply<QuotaRefused | null>>;
  /** Gives the reservation back (best effort: it expires on its own otherwise). */
  release(operationUuid: string): Promise<void>;
}
