import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CUSTOMER_OPERATIONS as OPS,
  type CustomerView,
  type Page,
  type RequestReply,
  type RoleGrantView,
} from '@app/contracts';
import { CustomerService } from '../services/customer.service';
import { RequestGuard } from '../services/request-guard.service';
import { RoleGrantService } from '../services/role-grant.service';

/**
 * `/api/customers/` over core NATS: the guard validates and loads the caller, one service answers.
 * `GET /api/customers/{uuid}/` is the marketplace's OwnerViewsController: one item shows its quotas
 * and their usage, which are the marketplace's.
 */
@Controller()
export class CustomersController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly customers: CustomerService,
    private readonly grants: RoleGrantService,
  ) {}

  @MessagePattern(OPS.list.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<CustomerView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) => this.customers.list(request, caller));
  }

  @MessagePattern(OPS.create.pattern)
  async onCreate(@Payload() payload: unknown): Promise<RequestReply<CustomerView>> {
    return this.guard.handle(OPS.create, payload, (request, caller) =>
      this.customers.create(request, caller),
    );
  }

  @MessagePattern(OPS.update.pattern)
  async onUpdate(@Payload() payload: unknown): Promise<RequestReply<CustomerView>> {
    return this.guard.handle(OPS.update, payload, (request, caller) =>
      this.customers.update(request, caller),
    );
  }

  @MessagePattern(OPS.delete.pattern)
  async onDelete(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.delete, payload, (request, caller) =>
      this.customers.delete(request, caller),
    );
  }

  @MessagePattern(OPS.listUsers.pattern)
  async onListUsers(@Payload() payload: unknown): Promise<RequestReply<Page<RoleGrantView>>> {
    return this.guard.handle(OPS.listUsers, payload, (request, caller) =>
      this.grants.listCustomerGrants(request, caller),
    );
  }

  @MessagePattern(OPS.addUser.pattern)
  async onAddUser(@Payload() payload: unknown): Promise<RequestReply<RoleGrantView>> {
    return this.guard.handle(OPS.addUser, payload, (request, caller) =>
      this.grants.grant('customer', request, caller),
    );
  }

  @MessagePattern(OPS.deleteUser.pattern)
  async onDeleteUser(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.deleteUser, payload, (request, caller) =>
      this.grants.revoke('customer', request, caller),
    );
  }
}
