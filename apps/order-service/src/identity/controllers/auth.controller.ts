import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  authenticateRequestSchema,
  LOGIN_OPERATION,
  refuse,
  validateRequest,
  type AuthenticatedCaller,
  type LoginReply,
  type RequestReply,
} from '@app/contracts';
import { AuthService } from '../services/auth.service';
import { LoginService } from '../services/login.service';

/** Token resolution for the gateway (one request per REST request, so a revoked token stops at once) and login. */
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly logins: LoginService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.authenticate)
  async onAuthenticate(@Payload() payload: unknown): Promise<RequestReply<AuthenticatedCaller>> {
    const parsed = validateRequest(authenticateRequestSchema, payload);
    // A malformed key is simply not a token: never echo it back in a field error.
    return parsed.ok ? this.auth.authenticate(parsed.value.token) : refuse(401, 'Invalid token.');
  }

  @MessagePattern(LOGIN_OPERATION.pattern)
  async onLogin(@Payload() payload: unknown): Promise<LoginReply> {
    const parsed = validateRequest(LOGIN_OPERATION.request, payload);
    return parsed.ok ? this.logins.login(parsed.value) : parsed.reply;
  }
}
