import { Injectable } from '@nestjs/common';
import { refuse, type RequestReply, type VsphereOperation } from '@app/contracts';
import { parseRequest } from '@app/messaging/requests/parse-request';
import type { z } from 'zod';

export const NOT_FOUND = 'Not found.';
export const FORBIDDEN = 'You do not have permission to perform this action.';

/** The refusal of a caller who is not staff where only staff may act. */
export const staffOnly = (): RequestReply<never> => refuse(403, FORBIDDEN);

/**
 * The frame of every request the gateway sends the adapter: the whole request (caller context
 * included) is validated again, whoever sent it; a failure is a 400 naming each field.
 */
@Injectable()
export class RequestGuard {
  async handle<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, T>(
    operation: VsphereOperation<P, Q, B>,
    payload: unknown,
    work: (request: z.output<VsphereOperation<P, Q, B>['request']>) => Promise<RequestReply<T>>,
  ): Promise<RequestReply<T>> {
    const parsed = parseRequest(operation.request, payload);
    if (!parsed.ok) return parsed.reply;
    return work(parsed.value);
  }

  /** The same for a plain schema (requests between services, without a caller). */
  async handleSchema<S extends z.ZodType, T>(
    schema: S,
    payload: unknown,
    work: (request: z.output<S>) => Promise<RequestReply<T>>,
  ): Promise<RequestReply<T>> {
    const parsed = parseRequest(schema, payload);
    if (!parsed.ok) return parsed.reply;
    return work(parsed.value);
  }
}
