import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  INTEGRATION_GET_PATTERN,
  INTEGRATION_SYNC_PATTERN,
  INTEGRATION_UPDATE_PATTERN,
  integrationGetRequestSchema,
  integrationSyncRequestSchema,
  integrationUpdateRequestSchema,
  LIMITS_GET,
  type IntegrationSyncAccepted,
  type IntegrationView,
  type LimitsView,
  type RequestReply,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { IntegrationService } from '../services/integration.service';

/** `vsphere-internal.integration.*` (asked by the order service) and `vsphere.limits.get` (by the gateway). */
@Controller()
export class IntegrationController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly integrations: IntegrationService,
  ) {}

  @MessagePattern(INTEGRATION_UPDATE_PATTERN)
  async onUpdate(@Payload() payload: unknown): Promise<RequestReply<IntegrationView>> {
    return this.guard.handleSchema(integrationUpdateRequestSchema, payload, (request) =>
      this.integrations.update(request.offering_uuid, request.service_attributes, request.customer_uuid),
    );
  }

  @MessagePattern(INTEGRATION_GET_PATTERN)
  async onGet(@Payload() payload: unknown): Promise<RequestReply<IntegrationView>> {
    return this.guard.handleSchema(integrationGetRequestSchema, payload, (request) =>
      this.integrations.get(request.offering_uuid),
    );
  }

  @MessagePattern(INTEGRATION_SYNC_PATTERN)
  async onSync(@Payload() payload: unknown): Promise<RequestReply<IntegrationSyncAccepted>> {
    return this.guard.handleSchema(integrationSyncRequestSchema, payload, (request) =>
      this.integrations.sync(request.offering_uuid),
    );
  }

  @MessagePattern(LIMITS_GET.pattern)
  async onLimits(@Payload() payload: unknown): Promise<RequestReply<LimitsView>> {
    return this.guard.handle(LIMITS_GET, payload, (request) =>
      this.integrations.limits(request.caller, request.params.offering_uuid),
    );
  }
}
