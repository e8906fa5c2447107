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
import { hashTokenKey } from '../domain/api-token';
import { DEADLINE_PASSED, DeadlinePassedError } from '@app/messaging';
import { DuplicateRowError, ReferencedRowError } from '../domain/persistence-errors';
import { AuthService } from './auth.service';
import { principalFrom } from './principal.service';

export const NOT_FOUND = 'Not found.';
export const FORBIDDEN = 'You do not have permission to perform this action.';

/** The refusal a policy decision other than `allow` stands for. */
export function denied(decision: Exclude<Decision, 'allow'>): RequestReply<never> {
  return decision === 'hide' ? refuse(404, NOT_FOUND) : refuse(403, FORBIDDEN);
}

/**
 * A caller resolved to a user, with the sha256 of the token key the request came with (when it
 * came with one): what a password change keeps while it revokes the user's other tokens.
 */
export type GuardedCaller = ResolvedCaller & { tokenKeyHash?: string };

/** An operation's request once its caller is resolved to a user. */
export type GuardedRequest<O extends Operation<z.ZodType, z.ZodType, z.ZodType>> = Omit<
  z.output<O['request']>,
  'caller'
> & { caller: GuardedCaller };

/**
 * The frame of every request of the order service: validate the whole request, resolve the caller's
 * token (in the same round trip; never a user the gateway asserts) as the access policy sees them,
 * run the work, and turn a constraint that lost a race into a 409.
 */
@Injectable()
export class RequestGuard {
  constructor(private readonly auth: AuthService) {}

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
    const { token, address } = parsed.value.caller;
    const caller: GuardedCaller = {
      user_uuid: principal.userUuid,
      address,
      ...(token !== undefined && { tokenKeyHash: hashTokenKey(token) }),
    };
    try {
      return await work({ ...parsed.value, caller }, principal);
    } catch (error) {
      if (error instanceof DuplicateRowError) return refuse(409, 'The object already exists.');
      if (error instanceof DeadlinePassedError) return refuse(503, DEADLINE_PASSED);
      if (error instanceof ReferencedRowError)
        return refuse(409, 'The object is referenced by, or refers to, an object that changed meanwhile.');
      throw error;
    }
  }

  /** The token resolved to its user, in this round trip: a revoked token stops at once. */
  private async resolve(caller: Caller): Promise<{ principal: Principal } | { refusal: string }> {
    const resolved = await this.auth.resolve(caller.token);
    if ('refusal' in resolved) return resolved;
    const { user } = resolved;
    return { principal: principalFrom(user.uuid, user.isStaff, user.grants) };
  }
}
