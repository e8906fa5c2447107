import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ok,
  QUOTA_RELEASE_PATTERN,
  QUOTA_RESERVE_PATTERN,
  quotaReleaseRequestSchema,
  quotaReserveRequestSchema,
  type QuotaReservationView,
  type RequestReply,
} from '@app/contracts';
import { parseRequest } from '@app/messaging';
import { QuotaReservationService } from '../services/quota-reservation.service';

/**
 * The vSphere adapter's quota reservations for changes asked on a VM's own endpoints (the NATS
 * permissions let only the adapter ask): no caller, the adapter checked it before asking.
 */
@Controller()
export class QuotaReservationsController {
  constructor(private readonly reservations: QuotaReservationService) {}

  @MessagePattern(QUOTA_RESERVE_PATTERN)
  async onReserve(@Payload() payload: unknown): Promise<RequestReply<QuotaReservationView>> {
    const parsed = parseRequest(quotaReserveRequestSchema, payload);
    if (!parsed.ok) return parsed.reply;
    return ok(await this.reservations.reserve(parsed.value));
  }

  @MessagePattern(QUOTA_RELEASE_PATTERN)
  async onRelease(@Payload() payload: unknown): Promise<RequestReply<null>> {
    const parsed = parseRequest(quotaReleaseRequestSchema, payload);
    if (!parsed.ok) return parsed.reply;
    await this.reservations.release(parsed.value);
    return ok(null);
  }
}
