import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PROVIDER_OFFERING_OPERATIONS as OPS,
  type OfferingView,
  type Page,
  type RequestReply,
} from '@app/contracts';
import { IdempotentRequests } from '../services/idempotent-requests.service';
import { RequestGuard } from '../../identity';
import type { IntegrationSummary } from '../ports/integration.port';
import { ProviderOfferingService } from '../services/provider-offering.service';

/** `/api/marketplace-provider-offerings/` over core NATS. */
@Controller()
export class ProviderOfferingsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly offerings: ProviderOfferingService,
    private readonly idempotency: IdempotentRequests,
  ) {}

  @MessagePattern(OPS.list.pattern)
  onList(@Payload() payload: unknown): Promise<RequestReply<Page<OfferingView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) => this.offerings.list(request, caller));
  }

  @MessagePattern(OPS.get.pattern)
  onGet(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.get, payload, (request, caller) => this.offerings.get(request, caller));
  }

  @MessagePattern(OPS.create.pattern)
  onCreate(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.create, payload, (request, caller) =>
      this.idempotency.run(OPS.create.pattern, request, caller, (store) =>
        this.offerings.create(request, caller, store),
      ),
    );
  }

  @MessagePattern(OPS.update.pattern)
  onUpdate(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.update, payload, (request, caller) =>
      this.offerings.update(request, caller),
    );
  }

  @MessagePattern(OPS.activate.pattern)
  onActivate(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.activate, payload, (request, caller) =>
      this.offerings.move('activate', request, caller),
    );
  }

  @MessagePattern(OPS.pause.pattern)
  onPause(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.pause, payload, (request, caller) =>
      this.offerings.move('pause', request, caller),
    );
  }

  @MessagePattern(OPS.archive.pattern)
  onArchive(@Payload() payload: unknown): Promise<RequestReply<OfferingView>> {
    return this.guard.handle(OPS.archive, payload, (request, caller) =>
      this.offerings.move('archive', request, caller),
    );
  }

  @MessagePattern(OPS.updateIntegration.pattern)
  onUpdateIntegration(@Payload() payload: unknown): Promise<RequestReply<IntegrationSummary>> {
    return this.guard.handle(OPS.updateIntegration, payload, (request, caller) =>
      this.offerings.updateIntegration(request, caller),
    );
  }

  @MessagePattern(OPS.sync.pattern)
  onSync(@Payload() payload: unknown): Promise<RequestReply<IntegrationSummary>> {
    return this.guard.handle(OPS.sync, payload, (request, caller) => this.offerings.sync(request, caller));
  }

  @MessagePattern(OPS.integration.pattern)
  onIntegration(@Payload() payload: unknown): Promise<RequestReply<IntegrationSummary>> {
    return this.guard.handle(OPS.integration, payload, (request, caller) =>
      this.offerings.integration(request, caller),
    );
  }
}
