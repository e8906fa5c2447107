import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type OfferingView,
  type OperationRequest,
  type Page,
  type PUBLIC_OFFERING_OPERATIONS,
  type RequestReply,
} from '@app/contracts';
import { NOT_FOUND } from '../../services/request-guard.service';
import { isProviderOffering } from '../dtos/offering.mapper';
import { OfferingRepository } from '../repositories/offering.repository';
import { OfferingViews } from './offering-views.service';

type Ops = typeof PUBLIC_OFFERING_OPERATIONS;

/** What any signed-in user may order from: Active offerings with their plans that are not archived. */
@Injectable()
export class PublicOfferingService {
  constructor(
    private readonly offerings: OfferingRepository,
    private readonly views: OfferingViews,
  ) {}

  async list(request: OperationRequest<Ops['list']>): Promise<RequestReply<Page<OfferingView>>> {
    const { page, page_size, type, customer_uuid, name } = request.query;
    const found = await this.offerings.list(
      { type, state: 'Active', customerUuid: customer_uuid, name },
      { page, pageSize: page_size },
    );
    return ok({ items: await this.views.many(found.items, { archivedPlans: false }), count: found.count });
  }

  async get(request: OperationRequest<Ops['get']>): Promise<RequestReply<OfferingView>> {
    const offering = await this.offerings.getById(request.params.uuid);
    if (!isProviderOffering(offering) || offering.state !== 'Active') return refuse(404, NOT_FOUND);
    return ok((await this.views.many([offering], { archivedPlans: false }))[0]);
  }
}
