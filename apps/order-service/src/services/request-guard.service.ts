import { Injectable } from '@nestjs/common';
import { refuse, validateRequest, type Operation, type RequestReply } from '@app/contracts';
import type { z } from 'zod';
import type { Decision, Principal } from '../domain/access-policy';
import { DuplicateRowError, ReferencedRowError } from '../domain/persistence-errors';
import { PrincipalService } from './principal.service';

export const NOT_FOUND = 'Not found.';
export const FORBIDDEN = 'You do not have permission to perform this action.';

/** The refusal a policy decision other than `allow` stands for. */
export function denied(decision: Exclude<Decision, 'allow'>): RequestReply<never> {
  return decision === 'hide' ? refuse(404, NOT_FOUND) : refuse(403, FORBIDDEN);
}

/**
 * The frame of every identity request: validate the whole request, load the caller as the access
 * policy sees them, run the work, and turn a constraint that lost a race into a 409.
 */
@Injectable()
export class RequestGuard {
  constructor(private readonly principals: PrincipalService) {}

  async handle<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
    operation: Operation<P, Q, B>,
    payload: unknown,
    work: (request: z.output<Operation<P, Q, B>['request']>, principal: Principal) => Promise<R>,
  ): Promise<R | RequestReply<never>> {
    const parsed = validateRequest(operation.request, payload);
    if (!parsed.ok) return parsed.reply;
    const principal = await this.principals.load(parsed.value.caller.user_uuid);
    if (!principal) return refuse(401, 'User inactive or deleted.');
    try {
      return await work(parsed.value, principal);
    } catch (error) {
      if (error instanceof DuplicateRowError) return refuse(409, 'The object already exists.');
      if (error instanceof ReferencedRowError)
        return refuse(409, 'The object is referenced by, or refers to, an object that changed meanwhile.');
      throw error;
    }
  }
}
