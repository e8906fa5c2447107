import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  throttled,
  type DetailView,
  type ThrottledReply,
  type OperationRequest,
  type RequestReply,
  type TokenView,
  type USER_OPERATIONS,
} from '@app/contracts';
import { decideUser, type Decision, type Principal } from '../domain/access-policy';
import { hashPassword, verifyPassword } from '../domain/password-hash';
import { AccessEvents } from '../repositories/access-events.repository';
import { UnitOfWork } from '@app/messaging';
import { UserRepository } from '../repositories/user.repository';
import { AuthService } from './auth.service';
import { LoginThrottleService } from './login-throttle.service';
import { PrincipalService } from './principal.service';
import { denied, NOT_FOUND, type GuardedRequest } from './request-guard.service';

type Ops = typeof USER_OPERATIONS;

/** An address for throttling when a request reached the service without one (not through the gateway). */
const UNKNOWN_ADDRESS = 'unknown';

/** A user's password and tokens: `change_password`, `refresh_token` and revoking every token. */
@Injectable()
export class CredentialService {
  constructor(
    private readonly users: UserRepository,
    private readonly principals: PrincipalService,
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottleService,
    private readonly uow: UnitOfWork,
    private readonly events: AccessEvents,
  ) {}

  async changePassword(
    request: GuardedRequest<Ops['changePassword']>,
    principal: Principal,
  ): Promise<RequestReply<DetailView> | ThrottledReply> {
    const decision = await this.decide(request.params.uuid, principal);
    if (decision !== 'allow') return denied(decision);
    const target = await this.users.getById(request.params.uuid);
    if (!target) return refuse(404, NOT_FOUND);
    const { new_password: password, current_password: current } = request.body;
    // Staff set anyone's password; a user changing their own proves they know the current one.
    if (!principal.isStaff) {
      const stored = await this.users.getPasswordHash(target.uuid);
      if (stored !== null) {
        if (current === undefined) return invalidField('current_password', 'This field is required.');
        const address = request.caller.address ?? UNKNOWN_ADDRESS;
        const wait = await this.throttle.attempt(address, target.username);
        if (wait !== null) return throttled(wait);
        if (!(await verifyPassword(current, stored)))
          return invalidField('current_password', 'Invalid password.');
        await this.throttle.succeeded(address, target.username);
      }
    }
    const hash = await hashPassword(password);
    // Whoever held a token of the old password is signed out: a user keeps only the token they
    // changed it with; staff setting another's password leave that user none.
    const kept = principal.userUuid === target.uuid ? request.caller.tokenKeyHash : undefined;
    await this.uow.run(async (tx) => {
      await this.users.setPasswordHash(target.uuid, hash, tx);
      await this.auth.revokeOthersOf(target.uuid, kept, tx);
      await this.events.accessChanged(tx, [target.uuid]);
    });
    this.events.wake();
    return ok({ detail: 'Password has been successfully updated.' });
  }

  async refreshToken(
    request: OperationRequest<Ops['refreshToken']>,
    principal: Principal,
  ): Promise<RequestReply<TokenView>> {
    const decision = await this.decide(request.params.uuid, principal);
    if (decision !== 'allow') return denied(decision);
    const token = await this.uow.run(async (tx) => {
      const issued = await this.auth.replaceTokens(request.params.uuid, tx);
      // Streams opened with a revoked token end: the gateway checks the user's subscribers again.
      await this.events.accessChanged(tx, [request.params.uuid]);
      return issued;
    });
    this.events.wake();
    return ok({ token });
  }

  async revokeTokens(
    request: OperationRequest<Ops['revokeTokens']>,
    principal: Principal,
  ): Promise<RequestReply<null>> {
    const decision = await this.decide(request.params.uuid, principal);
    if (decision !== 'allow') return denied(decision);
    await this.uow.run(async (tx) => {
      await this.auth.revokeAllOf(request.params.uuid, tx);
      await this.events.accessChanged(tx, [request.params.uuid]);
    });
    this.events.wake();
    return ok(null);
  }

  private async decide(uuid: string, principal: Principal): Promise<Decision> {
    const user = await this.users.getById(uuid);
    if (!user) return 'hide';
    return decideUser(principal, await this.principals.rolesOf(user.uuid), 'credentials');
  }
}
