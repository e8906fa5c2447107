import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type OfferingView,
  type OperationRequest,
  type Page,
  type PlanView,
  type PUBLIC_OFFERING_OPERATIONS,
  type RequestReply,
} from '@app/contracts';
import { NOT_FOUND } from '../../identity';
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
    const view = await this.activeView(request.params.uuid);
    return view ? ok(view) : refuse(404, NOT_FOUND);
  }

  /** The plans the public offering shows (an offering has a handful: paged in memory). */
  async plans(request: OperationRequest<Ops['plans']>): Promise<RequestReply<Page<PlanView>>> {
    const view = await this.activeView(request.params.uuid);
    if (!view) return refuse(404, NOT_FOUND);
    const { page, page_size } = request.query;
    const items = view.plans.slice((page - 1) * page_size, page * page_size);
    return ok({ items, count: view.plans.length });
  }

  /** One of them: a plan of another offering, or an archived one, is not found here. */
  async plan(request: OperationRequest<Ops['plan']>): Promise<RequestReply<PlanView>> {
    const view = await this.activeView(request.params.uuid);
    const plan = view?.plans.find((candidate) => candidate.uuid === request.params.plan_uuid);
    return plan ? ok(plan) : refuse(404, NOT_FOUND);
  }

  /** The offering as the catalogue shows it, or null when it is not there (unknown, not Active). */
  private async activeView(uuid: string): Promise<OfferingView | null> {
    const offering = await this.offerings.getById(uuid);
    if (!isProviderOffering(offering) || offering.state !== 'Active') return null;
    return (await this.views.many([offering], { archivedPlans: false }))[0];
  }
}
