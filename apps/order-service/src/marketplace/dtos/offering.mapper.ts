import { componentsOf, type OfferingView, type PlanView } from '@app/contracts';
import type { OfferingEntity } from '../entities/offering.entity';
import type { PlanWithPrices } from '../repositories/plan.repository';

export function toPlanView({ plan, prices }: PlanWithPrices): PlanView {
  return {
    uuid: plan.uuid,
    name: plan.name,
    offering_uuid: plan.offeringUuid,
    unit: 'month',
    prices,
    archived: plan.archived,
  };
}

/** An offering with its provider: every offering made through the API (only rows of the first round's caller-less path have none). */
export type ProviderOffering = OfferingEntity & { customerUuid: string };

export function isProviderOffering(offering: OfferingEntity | null): offering is ProviderOffering {
  return offering !== null && offering.customerUuid !== null;
}

/** The offering as provider and customer see it. */
export function toOfferingView(
  offering: ProviderOffering,
  customerName: string,
  plans: PlanWithPrices[],
): OfferingView {
  return {
    uuid: offering.uuid,
    name: offering.name,
    description: offering.description,
    category: offering.category,
    type: offering.type,
    state: offering.state,
    customer_uuid: offering.customerUuid,
    customer_name: customerName,
    terms_of_service: offering.termsOfService,
    max_resource_termination_offset_in_days: offering.maxResourceTerminationOffsetInDays ?? null,
    components: componentsOf(offering.type).map((component) => ({ ...component })),
    plans: plans.map(toPlanView),
    created: offering.created.toISOString(),
  };
}
