import type { Caller, RequestReply, VsphereCaller } from '@app/contracts';

export const CALLER_CONTEXT_PORT = Symbol('CallerContextPort');

/**
 * Who a request's token belongs to, as the order service (which owns users and tokens) resolves
 * it: the adapter acts on that answer alone, never on a caller the gateway describes.
 */
export interface CallerContextPort {
  /** The caller's context; 401 for a token the order service refuses, 503 when it does not answer. */
  resolve(caller: Caller): Promise<RequestReply<VsphereCaller>>;
}
