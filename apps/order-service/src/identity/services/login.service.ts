import { Injectable } from '@nestjs/common';
import { invalidField, ok, throttled, type LoginReply, type LOGIN_OPERATION } from '@app/contracts';
import type { z } from 'zod';
import { hashPassword, needsRehash, verifyPassword } from '../domain/password-hash';
import { UserRepository } from '../repositories/user.repository';
import { AuthService } from './auth.service';
import { LoginThrottleService } from './login-throttle.service';

type LoginRequest = z.output<(typeof LOGIN_OPERATION)['request']>;

/** Django REST framework's answer to any failed login: it never says which of the two was wrong. */
export const BAD_CREDENTIALS = 'Unable to log in with provided credentials.';

/** `POST /api-auth/password/`: a username and password for a new token, as Waldur answers it. */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottleService,
  ) {}

  async login(request: LoginRequest): Promise<LoginReply> {
    const { username, password } = request.body;
    const address = request.client.address;
    const wait = await this.throttle.attempt(address, username);
    if (wait !== null) return throttled(wait);
    const user = await this.users.getCredentials(username);
    // Always one scrypt, user or no user: the time taken tells nothing either.
    const matches = await verifyPassword(password, user?.passwordHash);
    if (!user || !user.isActive || !matches || !user.passwordHash) {
      return invalidField('non_field_errors', BAD_CREDENTIALS);
    }
    await this.throttle.succeeded(address, username);
    if (needsRehash(user.passwordHash))
      await this.users.setPasswordHash(user.uuid, await hashPassword(password));
    return ok({ token: await this.auth.issue(user.uuid) });
  }
}
