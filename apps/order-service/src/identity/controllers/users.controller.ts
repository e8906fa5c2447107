import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  USER_OPERATIONS as OPS,
  type DetailView,
  type Page,
  type RequestReply,
  type ThrottledReply,
  type TokenView,
  type UserView,
} from '@app/contracts';
import { CredentialService } from '../services/credential.service';
import { RequestGuard } from '../services/request-guard.service';
import { UserService } from '../services/user.service';

/** `/api/users/` over core NATS: the guard validates and loads the caller, one service answers. */
@Controller()
export class UsersController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly users: UserService,
    private readonly credentials: CredentialService,
  ) {}

  @MessagePattern(OPS.list.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<UserView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) => this.users.list(request, caller));
  }

  @MessagePattern(OPS.me.pattern)
  async onMe(@Payload() payload: unknown): Promise<RequestReply<UserView>> {
    return this.guard.handle(OPS.me, payload, (_request, caller) => this.users.me(caller));
  }

  @MessagePattern(OPS.get.pattern)
  async onGet(@Payload() payload: unknown): Promise<RequestReply<UserView>> {
    return this.guard.handle(OPS.get, payload, (request, caller) => this.users.get(request, caller));
  }

  @MessagePattern(OPS.create.pattern)
  async onCreate(@Payload() payload: unknown): Promise<RequestReply<UserView>> {
    return this.guard.handle(OPS.create, payload, (request, caller) => this.users.create(request, caller));
  }

  @MessagePattern(OPS.update.pattern)
  async onUpdate(@Payload() payload: unknown): Promise<RequestReply<UserView>> {
    return this.guard.handle(OPS.update, payload, (request, caller) => this.users.update(request, caller));
  }

  @MessagePattern(OPS.delete.pattern)
  async onDelete(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.delete, payload, (request, caller) => this.users.delete(request, caller));
  }

  @MessagePattern(OPS.changePassword.pattern)
  async onChangePassword(@Payload() payload: unknown): Promise<RequestReply<DetailView> | ThrottledReply> {
    return this.guard.handle(OPS.changePassword, payload, (request, caller) =>
      this.credentials.changePassword(request, caller),
    );
  }

  @MessagePattern(OPS.refreshToken.pattern)
  async onRefreshToken(@Payload() payload: unknown): Promise<RequestReply<TokenView>> {
    return this.guard.handle(OPS.refreshToken, payload, (request, caller) =>
      this.credentials.refreshToken(request, caller),
    );
  }

  @MessagePattern(OPS.revokeTokens.pattern)
  async onRevokeTokens(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.revokeTokens, payload, (request, caller) =>
      this.credentials.revokeTokens(request, caller),
    );
  }
}
