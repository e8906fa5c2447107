import { Inject, Injectable } from '@nestjs/common';
import { invalidField, type QuotaGrowth, type QuotaName, type RequestReply } from '@app/contracts';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { QUOTA_RESERVATION_PORT, type QuotaReservationPort } from '../../ports/quota-reservation.port';

/**
 * Growth asked on a VM's own endpoints (a disk added or extended, a resize) counted against the
 * quotas of the VM's project and organisation before the request is accepted: reserved by the order
 * service, under the order path's locks, inside the request's transaction (after the VM's row lock
 * and Waldur's own checks, before the operation is written), keyed by the operation's uuid. The
 * VmChanged that ends the operation releases it; a request that did not queue it releases it here.
 */
@Injectable()
export class VmQuotaService {
  /** Operations whose growth was reserved in a request still running (see `guard`). */
  private readonly reserved = new Set<string>();

  constructor(
    @Inject(QUOTA_RESERVATION_PORT) private readonly quotas: QuotaReservationPort,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Reserves `growth` for the operation about to be queued: null when reserved, or the answer to
   * give, a 400 on the request's field for the quota passed (`fields`) with the order service's
   * message, or 503 when it does not answer.
   */
  async reserve(
    operationUuid: string,
    marketplaceResourceUuid: string,
    growth: QuotaGrowth,
    fields: Readonly<Partial<Record<QuotaName, string>>>,
  ): Promise<RequestReply<never> | null> {
    if (growth.vcpu + growth.ram + growth.storage === 0) return null;
    // Counted as reserved before the answer: one that is lost (a timeout) may have been recorded,
    // and the failed request then gives it back.
    this.reserved.add(operationUuid);
    const reply = await this.quotas.reserve(operationUuid, marketplaceResourceUuid, growth);
    if (reply.status !== 'ok') return reply;
    if (reply.data === null) return null;
    this.reserved.delete(operationUuid);
    return invalidField(fields[reply.data.quota] ?? 'non_field_errors', reply.data.message);
  }

  /**
   * Runs the request (its transaction, which calls `reserve`): when it did not queue the operation
   * (a refusal, or a failure), the reservation is given back.
   */
  async guard<T>(operationUuid: string, request: () => Promise<RequestReply<T>>): Promise<RequestReply<T>> {
    let result: RequestReply<T>;
    try {
      result = await request();
    } catch (error) {
      await this.release(operationUuid);
      throw error;
    }
    if (result.status !== 'ok') await this.release(operationUuid);
    this.reserved.delete(operationUuid);
    return result;
  }

  private async release(operationUuid: string): Promise<void> {
    if (!this.reserved.delete(operationUuid)) return;
    try {
      await this.quotas.release(operationUuid);
    } catch (error) {
      // It expires on its own; until then it only makes the quota stricter.
      this.logger.warn({ err: error, operation: operationUuid }, 'releasing a quota reservation failed');
    }
  }
}
