import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ORDER_OPERATIONS as OPS,
  type OrderDraftView,
  type OrderView,
  type Page,
  type RequestReply,
  type ResourceView,
} from '@app/contracts';
import { IdempotentRequests } from '../services/idempotent-requests.service';
import { RequestGuard } from '../../identity';
import type { OrderAction } from '../domain/order-review';
import { OrderPlacementService } from '../services/order-placement.service';
import { OrderQueryService } from '../services/order-queries.service';
import { OrderReviewService } from '../services/order-review.service';

/** `/api/marketplace-orders/` over core NATS. */
@Controller()
export class MarketplaceOrdersController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly placement: OrderPlacementService,
    private readonly idempotency: IdempotentRequests,
    private readonly review: OrderReviewService,
    private readonly queries: OrderQueryService,
  ) {}

  @MessagePattern(OPS.list.pattern)
  onList(@Payload() payload: unknown): Promise<RequestReply<Page<OrderView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) =>
      this.queries.listOrders(request, caller),
    );
  }

  @MessagePattern(OPS.get.pattern)
  onGet(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.guard.handle(OPS.get, payload, (request, caller) =>
      this.queries.getOrder(request.params.uuid, caller),
    );
  }

  @MessagePattern(OPS.create.pattern)
  onCreate(@Payload() payload: unknown): Promise<RequestReply<OrderView | OrderDraftView>> {
    return this.guard.handle(OPS.create, payload, (request, caller) =>
      this.idempotency.run(OPS.create.pattern, request, caller, (store) =>
        this.placement.create(request, caller, store),
      ),
    );
  }

  @MessagePattern(OPS.resource.pattern)
  onResource(@Payload() payload: unknown): Promise<RequestReply<ResourceView>> {
    return this.guard.handle(OPS.resource, payload, (request, caller) =>
      this.queries.resourceOfOrder(request.params.uuid, caller),
    );
  }

  @MessagePattern(OPS.approveByConsumer.pattern)
  onApproveByConsumer(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('approve_by_consumer', payload);
  }

  @MessagePattern(OPS.rejectByConsumer.pattern)
  onRejectByConsumer(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('reject_by_consumer', payload);
  }

  @MessagePattern(OPS.approveByProvider.pattern)
  onApproveByProvider(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('approve_by_provider', payload);
  }

  @MessagePattern(OPS.rejectByProvider.pattern)
  onRejectByProvider(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('reject_by_provider', payload);
  }

  @MessagePattern(OPS.cancel.pattern)
  onCancel(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('cancel', payload);
  }

  @MessagePattern(OPS.retry.pattern)
  onRetry(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('retry', payload);
  }

  @MessagePattern(OPS.setStateDone.pattern)
  onSetStateDone(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.act('set_state_done', payload);
  }

  @MessagePattern(OPS.setStateErred.pattern)
  onSetStateErred(@Payload() payload: unknown): Promise<RequestReply<OrderView>> {
    return this.guard.handle(OPS.setStateErred, payload, (request, caller) =>
      this.review.act('set_state_erred', request.params.uuid, caller, request.body.error_message),
    );
  }

  private act(
    action: Exclude<OrderAction, 'set_state_erred'>,
    payload: unknown,
  ): Promise<RequestReply<OrderView>> {
    // Every action but set_state_erred takes the same request: the order's uuid and no body.
    return this.guard.handle(OPS.approveByConsumer, payload, (request, caller) =>
      this.review.act(action, request.params.uuid, caller),
    );
  }
}
