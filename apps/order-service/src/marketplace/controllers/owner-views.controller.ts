import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CUSTOMER_OPERATIONS as CUSTOMERS,
  PROJECT_OPERATIONS as PROJECTS,
  type CustomerView,
  type ProjectView,
  type RequestReply,
} from '@app/contracts';
import { CustomerService, ProjectService, RequestGuard } from '../../identity';
import { QuotaService, withQuotas } from '../services/quota.service';

/**
 * `GET /api/customers/{uuid}/` and `GET /api/projects/{uuid}/`: the organisation or project as
 * identity shows it, with its quotas and their usage (lists do not show them: usage is summed per
 * owner). Answered here because quotas are the marketplace's and identity does not import it.
 */
@Controller()
export class OwnerViewsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly customers: CustomerService,
    private readonly projects: ProjectService,
    private readonly quotas: QuotaService,
  ) {}

  @MessagePattern(CUSTOMERS.get.pattern)
  async onGetCustomer(@Payload() payload: unknown): Promise<RequestReply<CustomerView>> {
    return this.guard.handle(CUSTOMERS.get, payload, async (request, caller) =>
      withQuotas(this.quotas, await this.customers.get(request, caller), (view) => ({
        kind: 'customer',
        uuid: view.uuid,
      })),
    );
  }

  @MessagePattern(PROJECTS.get.pattern)
  async onGetProject(@Payload() payload: unknown): Promise<RequestReply<ProjectView>> {
    return this.guard.handle(PROJECTS.get, payload, async (request, caller) =>
      withQuotas(this.quotas, await this.projects.get(request, caller), (view) => ({
        kind: 'project',
        uuid: view.uuid,
      })),
    );
  }
}
