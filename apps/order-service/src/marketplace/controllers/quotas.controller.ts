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
 * `POST /api/customers/{uuid}/set_quotas/` and `POST /api/projects/{uuid}/set_quotas/`: answered
 * with the organisation or project as its GET shows it, quotas included.
 */
@Controller()
export class QuotasController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly quotas: QuotaService,
    private readonly customers: CustomerService,
    private readonly projects: ProjectService,
  ) {}

  @MessagePattern(CUSTOMERS.setQuotas.pattern)
  async onSetCustomerQuotas(@Payload() payload: unknown): Promise<RequestReply<CustomerView>> {
    return this.guard.handle(CUSTOMERS.setQuotas, payload, async (request, caller) => {
      const set = await this.quotas.setCustomerQuotas(request, caller);
      if (set.status !== 'ok') return set;
      const view = await this.customers.get({ ...request, query: {}, body: {} }, caller);
      return withQuotas(this.quotas, view, (customer) => ({ kind: 'customer', uuid: customer.uuid }));
    });
  }

  @MessagePattern(PROJECTS.setQuotas.pattern)
  async onSetProjectQuotas(@Payload() payload: unknown): Promise<RequestReply<ProjectView>> {
    return this.guard.handle(PROJECTS.setQuotas, payload, async (request, caller) => {
      const set = await this.quotas.setProjectQuotas(request, caller);
      if (set.status !== 'ok') return set;
      const view = await this.projects.get({ ...request, query: {}, body: {} }, caller);
      return withQuotas(this.quotas, view, (project) => ({ kind: 'project', uuid: project.uuid }));
    });
  }
}
