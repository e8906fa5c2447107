import { Injectable } from '@nestjs/common';
import {
  VMWARE_VM_TYPE,
  type QuotaReleaseRequest,
  type QuotaReservationView,
  type QuotaReserveRequest,
} from '@app/contracts';
import { UnitOfWork } from '../../identity';
import { QuotaRepository } from '../repositories/quota.repository';
import { NOTHING } from '../domain/quota-rules';
import { QuotaService } from './quota.service';

/**
 * How long a reservation counts at most. Its operation ends long before (the VmChanged that ends it
 * removes the reservation); this only bounds one the adapter reserved and then failed to queue and
 * to release, so a crash at that moment does not hold a project's room for ever.
 */
export const RESERVATION_TTL_MS = 6 * 60 * 60 * 1000;

/**
 * Growth asked on a VM's own endpoints, counted against its project's and organisation's quotas
 * before the vSphere adapter accepts it: checked and recorded in one transaction under the scopes'
 * row locks (the order path's), counted in usage until the adapter's operation ends.
 */
@Injectable()
export class QuotaReservationService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly quotas: QuotaRepository,
    private readonly quotaChecks: QuotaService,
  ) {}

  async reserve(request: QuotaReserveRequest): Promise<QuotaReservationView> {
    const asks = { ...NOTHING, ...request.growth };
    return this.unitOfWork.run(async (tx) => {
      const target = await this.quotas.reservationTarget(tx, request.resource_uuid);
      // Quotas count vSphere VMs of the marketplace only; a VM without its resource is not ours to count.
      if (target === null || target.offeringType !== VMWARE_VM_TYPE) return { refused: null };
      const project = { uuid: target.projectUuid, customerUuid: target.customerUuid };
      // Under the locks the check takes, an operation asked again (the adapter retried after a lost
      // answer) is found reserved: already counted, and counted once.
      const breach = await this.quotaChecks.breach(tx, project, asks);
      if (await this.quotas.hasReservation(tx, request.operation_uuid)) return { refused: null };
      if (breach !== null) return { refused: breach };
      if (asks.vcpu + asks.ram + asks.storage > 0)
        await this.quotas.reserve(
          tx,
          {
            operationUuid: request.operation_uuid,
            marketplaceResourceUuid: request.resource_uuid,
            growth: request.growth,
          },
          RESERVATION_TTL_MS,
        );
      return { refused: null };
    });
  }

  async release(request: QuotaReleaseRequest): Promise<void> {
    await this.quotas.release(request.operation_uuid);
  }
}
