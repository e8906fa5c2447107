import type { OnApplicationShutdown } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import {
  CALLER_CONTEXT,
  callerContextSchema,
  refuse,
  type Caller,
  type RequestReply,
  type VsphereCaller,
} from '@app/contracts';
import { askService, NO_ANSWER } from '@app/messaging';
import type { CallerContextPort } from '../ports/caller-context.port';

const UNAVAILABLE = 'The order-service is not available to check the token; try again shortly.';

/**
 * `callers.context` over core NATS, once per request the gateway forwards: one round trip resolves
 * the token to the caller's grants, so a revoked token or a changed role counts on the very next
 * request. An answer that is not a caller context is the order service's fault: 503, not a guess.
 */
export class CallerContextClient implements CallerContextPort, OnApplicationShutdown {
  constructor(
    private readonly client: ClientNats,
    private readonly timeoutMs = 5_000,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  async resolve(caller: Caller): Promise<RequestReply<VsphereCaller>> {
    const answer = await askService(
      this.client,
      CALLER_CONTEXT.pattern,
      { caller, params: {}, query: {}, body: {} },
      this.timeoutMs,
    );
    if (answer === NO_ANSWER) return refuse(503, UNAVAILABLE);
    const reply = answer as RequestReply<unknown> | null;
    if (reply?.status === 'error')
      return reply.code === 401 ? refuse(401, reply.detail ?? 'Invalid token.') : refuse(503, UNAVAILABLE);
    const parsed = callerContextSchema.safeParse(reply?.data);
    return parsed.success ? { status: 'ok', data: parsed.data } : refuse(503, UNAVAILABLE);
  }
}
