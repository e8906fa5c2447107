import { Injectable } from '@nestjs/common';
import type { OfferingView } from '@app/contracts';
import { CustomerService } from '../../identity';
import { toOfferingView, type ProviderOffering } from '../dtos/offering.mapper';
import { PlanRepository } from '../repositories/plan.repository';

/** Builds offerings' public views with their provider's name and plans: three queries per page. */
@Injectable()
export class OfferingViews {
  constructor(
    private readonly customers: CustomerService,
    private readonly plans: PlanRepository,
  ) {}

  async many(offerings: ProviderOffering[], options: { archivedPlans: boolean }): Promise<OfferingView[]> {
    const [plans, names] = await Promise.all([
      this.plans.ofOfferings(offerings.map((offering) => offering.uuid)),
      this.customers.namesOf([...new Set(offerings.map((offering) => offering.customerUuid))]),
    ]);
    return offerings.map((offering) =>
      toOfferingView(
        offering,
        names.get(offering.customerUuid) ?? '',
        (plans.get(offering.uuid) ?? []).filter((plan) => options.archivedPlans || !plan.plan.archived),
      ),
    );
  }

  async one(offering: ProviderOffering): Promise<OfferingView> {
    return (await this.many([offering], { archivedPlans: true }))[0];
  }
}
