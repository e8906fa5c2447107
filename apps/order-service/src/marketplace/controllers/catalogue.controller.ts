import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PLAN_OPERATIONS as PLANS,
  PUBLIC_OFFERING_OPERATIONS as PUBLIC,
  type EstimateView,
  type OfferingView,
  type Page,
  type PlanView,
  type RequestReply,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { PlanService } from '../services/plan.service';
import { PublicOfferingService } from '../services/public-offering.service';

/** `/api/marketplace-public-offerings/` and `/api/marketplace-plans/` over core NATS. */
@Controller()
export class CatalogueController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly offerings: PublicOfferingService,
    private readonly plans: PlanService,
  ) {}

  @MessagePattern(PUBLIC.list.pattern)
  onListOfferings(@Payload() payload: unknown): Promise<RequestReply<Page<OfferingView>>> {
    return this.guard.handle(PUBLIC.list, payload, (request) => this.offerings.list(request));
  }

  @MessagePattern(PUBLIC.get.pattern)
  onGetOffering(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(PUBLIC.get, payload, (request) => this.offerings.get(request));
  }

  @MessagePattern(PLANS.list.pattern)
  onListPlans(@Payload() payload: unknown): Promise<RequestReply<Page<PlanView>>> {
    return this.guard.handle(PLANS.list, payload, (request, caller) => this.plans.list(request, caller));
  }

  @MessagePattern(PLANS.get.pattern)
  onGetPlan(@Payload() payload: unknown): Promise<RequestReply<PlanView>> {
    return this.guard.handle(PLANS.get, payload, (request, caller) => this.plans.get(request, caller));
  }

  @MessagePattern(PLANS.updatePrices.pattern)
  onUpdatePrices(@Payload() payload: unknown): Promise<RequestReply<PlanView>> {
    return this.guard.handle(PLANS.updatePrices, payload, (request, caller) =>
      this.plans.updatePrices(request, caller),
    );
  }

  @MessagePattern(PLANS.estimate.pattern)
  onEstimate(@Payload() payload: unknown): Promise<RequestReply<EstimateView>> {
    return this.guard.handle(PLANS.estimate, payload, (request, caller) =>
      this.plans.estimate(request, caller),
    );
  }
}
