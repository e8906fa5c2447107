import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PLAN_OPERATIONS as PLANS,
  PUBLIC_OFFERING_OPERATIONS as PUBLIC,
  SERVICE_SETTINGS_GET,
  type EstimateView,
  type OfferingView,
  type Page,
  type PlanView,
  type RequestReply,
  type ServiceSettingsView,
} from '@app/contracts';
import { RequestGuard } from '../../identity';
import { PlanService } from '../services/plan.service';
import { PublicOfferingService } from '../services/public-offering.service';
import { ServiceSettingsService } from '../services/service-settings.service';

/** `/api/marketplace-public-offerings/`, `/api/marketplace-plans/` and `/api/service-settings/` over core NATS. */
@Controller()
export class CatalogueController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly offerings: PublicOfferingService,
    private readonly plans: PlanService,
    private readonly settings: ServiceSettingsService,
  ) {}

  @MessagePattern(PUBLIC.list.pattern)
  onListOfferings(@Payload() payload: unknown): Promise<RequestReply<Page<OfferingView>>> {
    return this.guard.handle(PUBLIC.list, payload, (request) => this.offerings.list(request));
  }

  @MessagePattern(PUBLIC.get.pattern)
  onGetOffering(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(PUBLIC.get, payload, (request) => this.offerings.get(request));
  }

  @MessagePattern(PUBLIC.plans.pattern)
  onListOfferingPlans(@Payload() payload: unknown): Promise<RequestReply<Page<PlanView>>> {
    return this.guard.handle(PUBLIC.plans, payload, (request) => this.offerings.plans(request));
  }

  @MessagePattern(PUBLIC.plan.pattern)
  onGetOfferingPlan(@Payload() payload: unknown): Promise<RequestReply<PlanView>> {
    return this.guard.handle(PUBLIC.plan, payload, (request) => this.offerings.plan(request));
  }

  @MessagePattern(SERVICE_SETTINGS_GET.pattern)
  onGetServiceSettings(@Payload() payload: unknown): Promise<RequestReply<ServiceSettingsView>> {
    return this.guard.handle(SERVICE_SETTINGS_GET, payload, (request, caller) =>
      this.settings.get(request, caller),
    );
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
