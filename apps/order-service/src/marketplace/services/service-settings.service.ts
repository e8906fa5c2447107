import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  VMWARE_VM_TYPE,
  type OperationRequest,
  type RequestReply,
  type SERVICE_SETTINGS_GET,
  type ServiceSettingsView,
} from '@app/contracts';
import { canActForProvider, type Principal, NOT_FOUND } from '../../identity';
import { isProviderOffering } from '../dtos/offering.mapper';
import { OfferingRepository } from '../repositories/offering.repository';
import { OfferingViews } from './offering-views.service';

/** The service settings of vSphere offerings (their integration), seen as the offering is. */
@Injectable()
export class ServiceSettingsService {
  constructor(
    private readonly offerings: OfferingRepository,
    private readonly views: OfferingViews,
  ) {}

  async get(
    request: OperationRequest<typeof SERVICE_SETTINGS_GET>,
    principal: Principal,
  ): Promise<RequestReply<ServiceSettingsView>> {
    const offering = await this.offerings.getById(request.params.uuid);
    if (!isProviderOffering(offering) || offering.type !== VMWARE_VM_TYPE) return refuse(404, NOT_FOUND);
    if (offering.state !== 'Active' && !canActForProvider(principal, offering.customerUuid))
      return refuse(404, NOT_FOUND);
    const [view] = await this.views.many([offering], { archivedPlans: false });
    return ok({
      uuid: view.uuid,
      name: view.name,
      type: 'VMware',
      customer_uuid: view.customer_uuid,
      customer_name: view.customer_name,
    });
  }
}
