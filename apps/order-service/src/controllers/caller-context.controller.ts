import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CALLER_CONTEXT, ok, type RequestReply, type VsphereCaller } from '@app/contracts';
import { customerScope } from '../domain/access-policy';
import { RequestGuard } from '../services/request-guard.service';

/** Who the caller is for the services that own no users (the vSphere adapter). */
@Controller()
export class CallerContextController {
  constructor(private readonly guard: RequestGuard) {}

  @MessagePattern(CALLER_CONTEXT.pattern)
  onContext(@Payload() payload: unknown): Promise<RequestReply<VsphereCaller>> {
    return this.guard.handle(CALLER_CONTEXT, payload, (_request, principal) => {
      const scope = customerScope(principal);
      return Promise.resolve(
        ok({
          user_uuid: principal.userUuid,
          is_staff: principal.isStaff,
          customer_uuids: scope.all ? [] : scope.customerUuids,
        }),
      );
    });
  }
}
