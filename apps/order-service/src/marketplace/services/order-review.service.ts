import { Injectable } from '@nestjs/common';
import { ok, refuse, type OrderView, type RequestReply } from '@app/contracts';
import type { Principal } from '../../identity';
import { EventOutbox } from '../repositories/event-outbox.repository';
import { OrderRepository } from '../repositories/order.repository';
import { UnitOfWork, denied, NOT_FOUND } from '../../identity';
import { checkAction, type OrderAction } from '../domain/order-review';
import { OrderViewRepository } from '../repositories/order-view.repository';
import { QuotaService } from './quota.service';
import { orderGrowth } from '../domain/quota-rules';
import { ResourceRepository } from '../repositories/resource.repository';
import { OrderTransitions } from './order-transitions.service';
import { PENDING_ORDER_EXISTS } from './order-placement.service';

/**
 * The review and completion actions of an order (`POST /api/marketplace-orders/{uuid}/<action>/`):
 * each checks the caller and the state under the order's row lock, moves the order and its resource,
 * and writes their events in the same transaction.
 */
@Injectable()
export class OrderReviewService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: EventOutbox,
    private readonly orders: OrderRepository,
    private readonly views: OrderViewRepository,
    private readonly transitions: OrderTransitions,
    private readonly resources: ResourceRepository,
    private readonly quotas: QuotaService,
  ) {}

  async act(
    action: OrderAction,
    uuid: string,
    principal: Principal,
    errorMessage = '',
  ): Promise<RequestReply<OrderView>> {
    const outcome = await this.uow.run(async (tx): Promise<RequestReply<OrderView>> => {
      const order = await this.orders.getForUpdate(tx, uuid);
      const view = order && (await this.views.order(uuid, tx));
      if (!order || !view) return refuse(404, NOT_FOUND);
      const check = checkAction(
        action,
        principal,
        {
          project: { uuid: view.project_uuid, customerUuid: view.customer_uuid },
          providerUuid: view.provider_uuid,
          offeringType: view.offering_type,
          type: view.type,
          createdBy: view.created_by_uuid,
        },
        order.state,
      );
      if (!check.ok) return 'decision' in check ? denied(check.decision) : refuse(409, check.conflict);
      if (action === 'retry' && (await this.orders.hasPending(tx, order.marketplaceResourceUuid, order.uuid)))
        return refuse(409, PENDING_ORDER_EXISTS);
      if (action === 'retry') {
        // An erred order used nothing: retried, it counts again, so it passes the quotas again.
        const resource = await this.resources.getForUpdate(tx, order.marketplaceResourceUuid);
        const growth = orderGrowth(view.offering_type, order.type, resource?.limits ?? null, order.limits, {
          before: resource?.cost ?? null,
          after: order.cost,
        });
        const project = { uuid: view.project_uuid, customerUuid: view.customer_uuid };
        const overQuota = await this.quotas.admit(tx, project, growth);
        if (overQuota) return overQuota;
      }
      const review = reviewOf(action, principal.userUuid);
      await this.transitions.apply(tx, {
        order,
        to: check.to,
        errorMessage: check.to === 'erred' ? errorMessage : undefined,
        review,
      });
      const changed = await this.views.order(uuid, tx);
      return changed ? ok(changed) : refuse(404, NOT_FOUND);
    });
    if (outcome.status === 'ok') this.events.wake();
    return outcome;
  }
}

function reviewOf(action: OrderAction, by: string): { by: string; as: 'consumer' | 'provider' } | undefined {
  if (action === 'approve_by_consumer' || action === 'reject_by_consumer') return { by, as: 'consumer' };
  if (action === 'approve_by_provider' || action === 'reject_by_provider') return { by, as: 'provider' };
  return undefined;
}
