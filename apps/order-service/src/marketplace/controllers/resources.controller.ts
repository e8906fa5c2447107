import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RESOURCE_OPERATIONS as OPS,
  type OrderCreatedView,
  type Page,
  type RequestReply,
  type ResourceView,
} from '@app/contracts';
import { IdempotentRequests } from '../services/idempotent-requests.service';
import { RequestGuard } from '../../identity';
import { OrderPlacementService } from '../services/order-placement.service';
import { OrderQueryService } from '../services/order-queries.service';

/** `/api/marketplace-resources/` over core NATS. */
@Controller()
export class MarketplaceResourcesController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly placement: OrderPlacementService,
    private readonly idempotency: IdempotentRequests,
    private readonly queries: OrderQueryService,
  ) {}

  @MessagePattern(OPS.list.pattern)
  onList(@Payload() payload: unknown): Promise<RequestReply<Page<ResourceView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) =>
      this.queries.listResources(request, caller),
    );
  }

  @MessagePattern(OPS.get.pattern)
  onGet(@Payload() payload: unknown): Promise<RequestReply<ResourceView>> {
    return this.guard.handle(OPS.get, payload, (request, caller) =>
      this.queries.getResource(request.params.uuid, caller),
    );
  }

  @MessagePattern(OPS.terminate.pattern)
  onTerminate(@Payload() payload: unknown): Promise<RequestReply<OrderCreatedView>> {
    return this.guard.handle(OPS.terminate, payload, (request, caller) =>
      this.idempotency.run(OPS.terminate.pattern, request, caller, (store) =>
        this.placement.terminate(request, caller, store),
      ),
    );
  }

  @MessagePattern(OPS.updateLimits.pattern)
  onUpdateLimits(@Payload() payload: unknown): Promise<RequestReply<OrderCreatedView>> {
    return this.guard.handle(OPS.updateLimits, payload, (request, caller) =>
      this.idempotency.run(OPS.updateLimits.pattern, request, caller, (store) =>
        this.placement.updateLimits(request, caller, store),
      ),
    );
  }
}
