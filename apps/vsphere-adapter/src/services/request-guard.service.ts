import { Inject, Injectable } from '@nestjs/common';
import { refuse, type RequestReply, type VsphereCaller, type VsphereOperation } from '@app/contracts';
import { DEADLINE_PASSED, DeadlinePassedError } from '@app/messaging';
import { parseRequest } from '@app/messaging/requests/parse-request';
import type { z } from 'zod';
import { CALLER_CONTEXT_PORT, type CallerContextPort } from '../ports/caller-context.port';

export const NOT_FOUND = 'Not found.';
export const FORBIDDEN = 'You do not have permission to perform this action.';

/** The refusal of a caller who is not staff where only staff may act. */
export const staffOnly = (): RequestReply<never> => refuse(403, FORBIDDEN);

/** An operation's request once its token is resolved to the caller's context. */
export type GuardedRequest<O extends VsphereOperation<z.ZodType, z.ZodType, z.ZodType>> = Omit<
  z.output<O['request']>,
  'caller'
> & { caller: VsphereCaller };

/**
 * The frame of every request the gateway sends the adapter: the whole request is validated again,
 * whoever sent it (a failure is a 400 naming each field), then the caller's token is resolved by
 * the order service (401 when it refuses it), and the work sees only what that answer says. The
 * caller is never taken from the request itself: it carries nothing but the token. Work that
 * would commit past the gateway's deadline (`meta.deadline`, handed to the unit of work) is rolled
 * back and answered 503: the gateway has answered 503 by then, and that 503 means "not done".
 */
@Injectable()
export class RequestGuard {
  constructor(@Inject(CALLER_CONTEXT_PORT) private readonly callers: CallerContextPort) {}

  async handle<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, T>(
    operation: VsphereOperation<P, Q, B>,
    payload: unknown,
    work: (request: GuardedRequest<VsphereOperation<P, Q, B>>) => Promise<RequestReply<T>>,
  ): Promise<RequestReply<T>> {
    const parsed = parseRequest(operation.request, payload);
    if (!parsed.ok) return parsed.reply;
    const context = await this.callers.resolve(parsed.value.caller);
    if (context.status === 'error') return context;
    return untilDeadline(() => work({ ...parsed.value, caller: context.data }));
  }

  /** The same for a plain schema (requests between services, without a caller). */
  async handleSchema<S extends z.ZodType, T>(
    schema: S,
    payload: unknown,
    work: (request: z.output<S>) => Promise<RequestReply<T>>,
  ): Promise<RequestReply<T>> {
    const parsed = parseRequest(schema, payload);
    if (!parsed.ok) return parsed.reply;
    return untilDeadline(() => work(parsed.value));
  }
}

async function untilDeadline<T>(work: () => Promise<RequestReply<T>>): Promise<RequestReply<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DeadlinePassedError) return refuse(503, DEADLINE_PASSED);
    throw error;
  }
}
