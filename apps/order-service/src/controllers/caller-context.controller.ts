import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CALLER_CONTEXT, ok, type CallerContext, type RequestReply } from '@app/contracts';
import { customerScope } from '../domain/access-policy';
import { RequestGuard } from '../services/request-guard.service';

/**
 * Who the caller is for those who own no users: the vSphere adapter (its customers) and the
 * gateway's SSE subscribers (the projects and owned customers each event is checked against).
 */
@Controller()
export class CallerContextController {
  constructor(private readonly guard: RequestGuard) {}

  @MessagePattern(CALLER_CONTEXT.pattern)
  onContext(@Payload() payload: unknown): Promise<RequestReply<CallerContext>> {
    return this.guard.handle(CALLER_CONTEXT, payload, (_request, principal) => {
      const scope = customerScope(principal);
      // Staff see everything: the lists stay empty rather than naming every customer.
      const staff = principal.isStaff;
      return Promise.resolve(
        ok({
          user_uuid: principal.userUuid,
          is_staff: staff,
          customer_uuids: scope.all ? [] : scope.customerUuids,
          project_uuids: staff ? [] : [...principal.projectRoles.keys()],
          owned_customer_uuids: staff ? [] : [...principal.ownedCustomers],
        }),
      );
    });
  }
}
