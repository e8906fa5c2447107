import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  authenticateRequestSchema,
  refuse,
  type AuthenticatedCaller,
  type RequestReply,
} from '@app/contracts';
import { parseRequest } from '@app/messaging/requests/parse-request';
import { AuthService } from '../services/auth.service';

/** Token resolution for the gateway: one request per REST request, so a revoked token stops at once. */
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(AUTH_PATTERNS.authenticate)
  async onAuthenticate(@Payload() payload: unknown): Promise<RequestReply<AuthenticatedCaller>> {
    const parsed = parseRequest(authenticateRequestSchema, payload);
    // A malformed key is simply not a token: never echo it back in a field error.
    return parsed.ok ? this.auth.authenticate(parsed.value.token) : refuse(401, 'Invalid token.');
  }
}
