import type { ClientNats } from '@nestjs/microservices';
import {
  QUOTA_RELEASE_PATTERN,
  QUOTA_RESERVE_PATTERN,
  quotaReservationViewSchema,
  refuse,
  type QuotaGrowth,
  type QuotaReserveRequest,
  type RequestReply,
} from '@app/contracts';
import { askService, NO_ANSWER } from '@app/messaging';
import type { QuotaRefused, QuotaReservationPort } from '../ports/quota-reservation.port';

const UNAVAILABLE = 'The order-service is not available to check the quotas; try again shortly.';

/**
 * `quota-reservations.*` over core NATS, on the adapter's connection to the order service (the
 * caller-context client owns and closes it). An answer that is not a reservation is the order
 * service's fault: 503, never an accepted growth.
 */
export class QuotaReservationClient implements QuotaReservationPort {
  constructor(
    private readonly client: ClientNats,
    private readonly timeoutMs = 5_000,
  ) {}

  async reserve(
    operationUuid: string,
    marketplaceResourceUuid: string,
    growth: QuotaGrowth,
  ): Promise<RequestReply<QuotaRefused | null>> {
    const request: QuotaReserveRequest = {
      operation_uuid: operationUuid,
      resource_uuid: marketplaceResourceUuid,
      growth,
    };
    const answer = await askService(this.client, QUOTA_RESERVE_PATTERN, request, this.timeoutMs);
    if (answer === NO_ANSWER) return refuse(503, UNAVAILABLE);
    const reply = answer as RequestReply<unknown> | null;
    if (reply?.status !== 'ok') return refuse(503, UNAVAILABLE);
    const parsed = quotaReservationViewSchema.safeParse(reply.data);
    return parsed.success ? { status: 'ok', data: parsed.data.refused } : refuse(503, UNAVAILABLE);
  }

  async release(operationUuid: string): Promise<void> {
    await askService(this.client, QUOTA_RELEASE_PATTERN, { operation_uuid: operationUuid }, this.timeoutMs);
  }
}
