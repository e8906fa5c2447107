import { Injectable } from '@nestjs/common';
import {
  AUTH_PATTERNS,
  CALLER_CONTEXT,
  type AuthenticatedCaller,
  type CallerContext,
  type OperationPayload,
  type RequestReply,
} from '@app/contracts';
import { ServiceRequester } from '../services/service-requester';
import { ApiError } from './http-types';

const CHALLENGE = { 'WWW-Authenticate': 'Token' };

export function unauthorized(detail: string): ApiError {
  return new ApiError(401, { detail }, CHALLENGE);
}

/** The key of an `Authorization: Token <key>` header, with Django REST framework's messages for the rest. */
export function tokenFromHeader(header: string | undefined): string {
  const parts = (header ?? '').trim().split(/\s+/);
  if (parts[0]?.toLowerCase() !== 'token')
    throw unauthorized('Authentication credentials were not provided.');
  if (parts.length === 1) throw unauthorized('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw unauthorized('Invalid token header. Token string should not contain spaces.');
  return parts[1];
}

/**
 * Resolves the caller by asking the order service, once per REST request and without a cache: the
 * gateway keeps no state, and a revoked or expired token stops working on the very next request.
 */
@Injectable()
export class CallerResolver {
  constructor(private readonly requester: ServiceRequester) {}

  async resolve(authorization: string | undefined): Promise<AuthenticatedCaller> {
    const token = tokenFromHeader(authorization);
    const reply = await this.requester.request<RequestReply<AuthenticatedCaller>>(
      AUTH_PATTERNS.authenticate,
      { token },
    );
    if (reply.status === 'ok') return reply.data;
    // The service could not check the token (its Postgres is away): not the caller's fault.
    if (reply.code === 503) throw new ApiError(503, { detail: reply.detail ?? 'Service unavailable.' });
    throw unauthorized(reply.detail ?? 'Invalid token.');
  }

  /**
   * Everything the order service says about the caller of `authorization` (staff flag, owned
   * customers, project grants with roles), resolved from the token itself: for SSE, whose events
   * are checked against it in memory.
   */
  async fullContext(authorization: string | undefined): Promise<CallerContext> {
    const payload: OperationPayload = {
      caller: { token: tokenFromHeader(authorization) },
      params: {},
      query: {},
      body: {},
    };
    const reply = await this.requester.request<RequestReply<CallerContext>>(CALLER_CONTEXT.pattern, payload);
    if (reply.status === 'ok') return reply.data;
    if (reply.code === 503) throw new ApiError(503, { detail: reply.detail ?? 'Service unavailable.' });
    throw unauthorized(reply.detail ?? 'Invalid token.');
  }
}
