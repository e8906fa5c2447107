import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type OperationRequest,
  type ORDER_OPERATIONS,
  type OrderView,
  type Page,
  type RequestReply,
  type RESOURCE_OPERATIONS,
  type ResourceView,
} from '@app/contracts';
import { type Principal, NOT_FOUND } from '../../identity';
import { canSeeOrder } from '../domain/order-review';
import { OrderViewRepository, orderVisibility } from '../repositories/order-view.repository';

type OrderOps = typeof ORDER_OPERATIONS;
type ResourceOps = typeof RESOURCE_OPERATIONS;

/** Lists and gets of orders and resources: the project's members, the customer's owners, staff, and the provider's owners. */
@Injectable()
export class OrderQueryService {
  constructor(private readonly views: OrderViewRepository) {}

  async listOrders(
    request: OperationRequest<OrderOps['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<OrderView>>> {
    const q = request.query;
    const found = await this.views.orders(
      orderVisibility(principal),
      {
        offeringUuid: q.offering_uuid,
        projectUuid: q.project_uuid,
        customerUuid: q.customer_uuid,
        providerUuid: q.provider_uuid,
        marketplaceResourceUuid: q.resource_uuid,
        state: q.state,
        type: q.type,
      },
      { page: q.page, pageSize: q.page_size },
    );
    return ok(found);
  }

  async getOrder(uuid: string, principal: Principal): Promise<RequestReply<OrderView>> {
    const order = await this.views.order(uuid);
    return order && visible(principal, order) ? ok(order) : refuse(404, NOT_FOUND);
  }

  /** `GET /api/marketplace-orders/{uuid}/resource/`: the order's marketplace resource. */
  async resourceOfOrder(uuid: string, principal: Principal): Promise<RequestReply<ResourceView>> {
    const order = await this.views.order(uuid);
    if (!order || !visible(principal, order)) return refuse(404, NOT_FOUND);
    const resource = await this.views.resource(order.marketplace_resource_uuid);
    return resource ? ok(resource) : refuse(404, NOT_FOUND);
  }

  async listResources(
    request: OperationRequest<ResourceOps['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<ResourceView>>> {
    const q = request.query;
    const found = await this.views.resources(
      orderVisibility(principal),
      {
        offeringUuid: q.offering_uuid,
        projectUuid: q.project_uuid,
        customerUuid: q.customer_uuid,
        state: q.state,
        name: q.name,
      },
      { page: q.page, pageSize: q.page_size },
    );
    return ok(found);
  }

  async getResource(uuid: string, principal: Principal): Promise<RequestReply<ResourceView>> {
    const resource = await this.views.resource(uuid);
    return resource && visible(principal, resource) ? ok(resource) : refuse(404, NOT_FOUND);
  }
}

function visible(
  principal: Principal,
  view: { project_uuid: string; customer_uuid: string; provider_uuid: string },
): boolean {
  return canSeeOrder(principal, {
    project: { uuid: view.project_uuid, customerUuid: view.customer_uuid },
    providerUuid: view.provider_uuid,
  });
}
