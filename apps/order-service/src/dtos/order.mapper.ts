import type { OfferingSummary, BackboneOrderView } from '@app/contracts';
import type { OfferingEntity } from '../entities/offering.entity';
import type { OrderEntity } from '../entities/order.entity';

export function toOrderView(order: OrderEntity, backendId: string | null): BackboneOrderView {
  return {
    uuid: order.uuid,
    type: order.type,
    state: order.state,
    offering_uuid: order.offeringUuid,
    project_uuid: order.projectUuid,
    marketplace_resource_uuid: order.resourceUuid,
    resource_uuid: backendId,
    attributes: order.attributes,
    limits: order.limits,
    error_message: order.errorMessage,
    created: order.created.toISOString(),
    modified: order.modified.toISOString(),
    completed_at: order.completedAt?.toISOString() ?? null,
  };
}

export function toOfferingSummary(offering: OfferingEntity): OfferingSummary {
  return {
    uuid: offering.uuid,
    name: offering.name,
    type: offering.type,
    created: offering.created.toISOString(),
  };
}
