import { Injectable } from '@nestjs/common';
import {
  refuse,
  validateRequest,
  type Caller,
  type Operation,
  type RequestReply,
  type ResolvedCaller,
} from '@app/contracts';
import type { z } from 'zod';
import type { Decision, Principal } from '../domain/access-policy';
import { DuplicateRowError, ReferencedRowError } from '../domain/persistence-errors';
import { AuthService } from './auth.service';
import { PrincipalService, principalFrom } from './principal.service';

export const NOT_FOUND = 'Not found.';
export const FORBIDDEN = 'You do not have permission to perform this action.';

/** The refusal a policy decision other than `allow` stands for. */
export function denied(decision: Exclude<Decision, 'allow'>): RequestReply<never> {
  return decision === 'hide' ? refuse(404, NOT_FOUND) : refuse(403, FORBIDDEN);
}

/** An operation's request once its caller is resolved to a user. */
export type GuardedRequest<O extends Operation<z.ZodType, z.ZodType, z.ZodType>> = Omit<
  z.output<O['request']>,
  'caller'
> & { caller: ResolvedCaller };

/**
 * The frame of every request of the order service: validate the whole request, resolve the caller
 * (a token key in the same round trip, or a user the gateway resolved) as the access policy sees
 * them, run the work, and turn a constraint that lost a race into a 409.
 */
@Injectable()
export class RequestGuard {
  constructor(
    private readonly principals: PrincipalService,
    private readonly auth: AuthService,
  ) {}

  async handle<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
    operation: Operation<P, Q, B>,
    payload: unknown,
    work: (request: GuardedRequest<Operation<P, Q, B>>, principal: Principal) => Promise<R>,
  ): Promise<R | RequestReply<never>> {
    const parsed = validateRequest(operation.request, payload);
    if (!parsed.ok) return parsed.reply;
    const resolved = await this.resolve(parsed.value.caller);
    if ('refusal' in resolved) return refuse(401, resolved.refusal);
    const { principal } = resolved;
    const caller: ResolvedCaller = { user_uuid: principal.userUuid, address: parsed.value.caller.address };
    try {
      return await work({ ...parsed.value, caller }, principal);
    } catch (error) {
      if (error instanceof DuplicateRowError) return refuse(409, 'The object already exists.');
      if (error instanceof ReferencedRowError)
        return refuse(409, 'The object is referenced by, or refers to, an object that changed meanwhile.');
      throw error;
    }
  }

  private async resolve(caller: Caller): Promise<{ principal: Principal } | { refusal: string }> {
    if (caller.token !== undefined) {
      const resolved = await this.auth.resolve(caller.token);
      if ('refusal' in resolved) return resolved;
      const { user } = resolved;
      return { principal: principalFrom(user.uuid, user.isStaff, user.grants) };
    }
    const principal = await this.principals.load(caller.user_uuid as string);
    return principal ? { principal } : { refusal: 'User inactive or deleted.' };
  }
}
