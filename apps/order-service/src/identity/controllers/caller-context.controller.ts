import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CALLER_CONTEXT,
  contextOfPrincipal,
  ok,
  type CallerContext,
  type RequestReply,
} from '@app/contracts';
import { RequestGuard } from '../services/request-guard.service';

/**
 * Who the caller of a token is, for those who own no users: the vSphere adapter (for every request
 * the gateway forwards it) and the gateway's SSE subscribers (each event is checked against it).
 * The whole principal (staff flag, owned customers, project grants with roles), so that they ask
 * the shared access policy exactly as the order service does.
 */
@Controller()
export class CallerContextController {
  constructor(private readonly guard: RequestGuard) {}

  @MessagePattern(CALLER_CONTEXT.pattern)
  onContext(@Payload() payload: unknown): Promise<RequestReply<CallerContext>> {
    return this.guard.handle(CALLER_CONTEXT, payload, (_request, principal) =>
      Promise.resolve(ok(contextOfPrincipal(principal))),
    );
  }
}
