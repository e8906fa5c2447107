import { Injectable } from '@nestjs/common';
import {
  componentsOf,
  monthlyEstimate,
  ok,
  refuse,
  type EstimateView,
  type OperationRequest,
  type Page,
  type PLAN_OPERATIONS,
  type PlanView,
  type RequestReply,
} from '@app/contracts';
import { canActForProvider, type Principal, FORBIDDEN, NOT_FOUND } from '../../identity';
import { isProviderOffering, toPlanView, type ProviderOffering } from '../dtos/offering.mapper';
import { OfferingRepository } from '../repositories/offering.repository';
import { PlanRepository, type PlanWithPrices } from '../repositories/plan.repository';

type Ops = typeof PLAN_OPERATIONS;

/**
 * Plans: everyone sees those of Active offerings (what they may order, with a monthly estimate);
 * a provider also sees and prices its own offerings' plans.
 */
@Injectable()
export class PlanService {
  constructor(
    private readonly plans: PlanRepository,
    private readonly offerings: OfferingRepository,
  ) {}

  async list(
    request: OperationRequest<Ops['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<PlanView>>> {
    const { page, page_size, offering_uuid } = request.query;
    const found = await this.plans.list(
      {
        offeringUuid: offering_uuid,
        providerUuids: principal.isStaff ? undefined : [...principal.ownedCustomers],
      },
      { page, pageSize: page_size },
    );
    return ok({ items: found.items.map(toPlanView), count: found.count });
  }

  async get(request: OperationRequest<Ops['get']>, principal: Principal): Promise<RequestReply<PlanView>> {
    const found = await this.visible(request.params.uuid, principal);
    return found ? ok(toPlanView(found.plan)) : refuse(404, NOT_FOUND);
  }

  async updatePrices(
    request: OperationRequest<Ops['updatePrices']>,
    principal: Principal,
  ): Promise<RequestReply<PlanView>> {
    const found = await this.visible(request.params.uuid, principal);
    if (!found) return refuse(404, NOT_FOUND);
    if (!canActForProvider(principal, found.offering.customerUuid)) return refuse(403, FORBIDDEN);
    const known = new Set(componentsOf(found.offering.type).map((component) => component.type));
    const unknown = Object.keys(request.body.prices).filter((type) => !known.has(type));
    if (unknown.length > 0) {
      const fields = Object.fromEntries(
        unknown.map((type) => [`prices.${type}`, [`Offering has no component "${type}".`]]),
      );
      return { status: 'error', code: 400, fields };
    }
    await this.plans.setPrices(found.plan.plan.uuid, request.body.prices);
    const updated = await this.plans.getById(found.plan.plan.uuid);
    return updated ? ok(toPlanView(updated)) : refuse(404, NOT_FOUND);
  }

  async estimate(
    request: OperationRequest<Ops['estimate']>,
    principal: Principal,
  ): Promise<RequestReply<EstimateView>> {
    const found = await this.visible(request.params.uuid, principal);
    if (!found) return refuse(404, NOT_FOUND);
    const { limits } = request.body;
    return ok({
      monthly_cost: monthlyEstimate(componentsOf(found.offering.type), found.plan.prices, limits),
      limits,
    });
  }

  private canSee(offering: ProviderOffering, principal: Principal): boolean {
    return (
      isProviderOffering(offering) &&
      (offering.state === 'Active' || canActForProvider(principal, offering.customerUuid))
    );
  }

  private async visible(
    uuid: string,
    principal: Principal,
  ): Promise<{ plan: PlanWithPrices; offering: ProviderOffering } | null> {
    const plan = await this.plans.getById(uuid);
    if (!plan) return null;
    const offering = await this.offerings.getById(plan.plan.offeringUuid);
    if (!isProviderOffering(offering) || !this.canSee(offering, principal)) return null;
    return { plan, offering };
  }
}
