import { HttpException, Injectable } from '@nestjs/common';
import {
  CUSTOMER_OPERATIONS,
  uuidOfHyperlink,
  validateRequest,
  type Caller,
  type OperationPayload,
  type Page,
  type RequestReply,
  type ThrottledReply,
  type VsphereCaller,
} from '@app/contracts';
import type { z } from 'zod';
import { ServiceRequester } from '../services/service-requester';
import { CallerResolver, tokenFromHeader } from './caller-resolver';
import { ApiError, sendJson, type HttpRequest, type HttpResponse } from './http-types';
import { readJsonBody } from './json-body';
import { Links } from './links';
import { findUnstorableText } from './storable-input';
import { lastPage, paginationHeaders } from './pagination';
import { hasJsonBody, successStatus, type ApiRoute } from './route';

/**
 * The one pipeline every REST endpoint goes through, in Django REST framework's order:
 * authenticate (401), validate path, query and body (400 naming each field), ask the owning service
 * over NATS (503 when it does not answer), then map its reply to the status, headers and body.
 */
@Injectable()
export class ApiHandler {
  constructor(
    private readonly callers: CallerResolver,
    private readonly requester: ServiceRequester,
  ) {}

  async handle(
    route: ApiRoute,
    request: HttpRequest,
    response: HttpResponse,
    fallbackOrigin: string,
  ): Promise<void> {
    try {
      const address = clientAddress(request);
      const who = await this.who(route, request, address);
      const { params, query, body } = await this.validated(route, request, who);
      if (route.customerLink && 'caller' in who && who.caller.user_uuid !== undefined)
        await this.checkCustomer(who.caller.user_uuid, body, route.customerLink);
      // The raw parts travel on: the service validates the very same schemas again.
      const payload = {
        ...who,
        params: request.params,
        query: request.query,
        body,
      };
      const reply = await this.requester.request<RequestReply<unknown> | ThrottledReply>(
        route.operation.pattern,
        payload,
      );
      if (reply.status === 'error') throw refusal(reply);
      this.answer(route, request, response, Links.for(request, fallbackOrigin), reply.data, {
        params,
        query,
      });
    } catch (error) {
      sendError(response, error);
    }
  }

  /**
   * Who the service is told asks. Public operations (login) carry the client's address instead. The
   * order service resolves the token itself, in the same round trip as the operation (it owns the
   * tokens), and is told the address too (it throttles guesses of a current password). The vSphere
   * adapter owns no users: it is told the caller's customers and staff flag, resolved first; so is
   * a route whose customer link is checked before the operation.
   */
  private async who(
    route: ApiRoute,
    request: HttpRequest,
    address: string,
  ): Promise<{ client: { address: string } } | { caller: Caller | VsphereCaller }> {
    if (route.operation.auth === 'none') return { client: { address } };
    const { authorization } = request.headers;
    if (route.operation.pattern.startsWith('vsphere.')) {
      return { caller: await this.callers.context(await this.callers.resolve(authorization)) };
    }
    if (route.customerLink) {
      const caller = await this.callers.resolve(authorization);
      return { caller: { user_uuid: caller.user_uuid, address } };
    }
    return { caller: { token: tokenFromHeader(authorization), address } };
  }

  /**
   * The request's parts, validated. A caller whose token only the service resolves is still told 401
   * before 400, as Django REST framework authenticates first: the token is checked here when a
   * part is refused (a refusal costs the extra round trip, a valid request does not).
   */
  private async validated(
    route: ApiRoute,
    request: HttpRequest,
    who: Awaited<ReturnType<ApiHandler['who']>>,
  ): Promise<{ params: unknown; query: unknown; body: unknown }> {
    try {
      const params = validate(route.operation.params, request.params);
      const query = validate(route.operation.query, request.query);
      const body = hasJsonBody(route.method) ? await readJsonBody(request) : {};
      validate(route.operation.body, body);
      refuseUnstorable({ ...request.query }, body);
      return { params, query, body };
    } catch (error) {
      if ('caller' in who && 'token' in who.caller) await this.callers.resolve(request.headers.authorization);
      throw error;
    }
  }

  /** A linked customer the caller cannot see (or that does not exist) is a bad link: 400 naming the field. */
  private async checkCustomer(userUuid: string, body: unknown, field: string): Promise<void> {
    const link = (body as Record<string, unknown>)[field];
    if (typeof link !== 'string') return; // the operation's own schema names the field
    const payload: OperationPayload = {
      caller: { user_uuid: userUuid },
      params: { uuid: uuidOfHyperlink(link) },
      query: {},
      body: {},
    };
    const reply = await this.requester.request<RequestReply<unknown>>(
      CUSTOMER_OPERATIONS.get.pattern,
      payload,
    );
    if (reply.status === 'ok') return;
    if (reply.code === 503) throw new ApiError(503, { detail: reply.detail ?? 'Service unavailable.' });
    throw new ApiError(400, { [field]: ['Invalid hyperlink - Object does not exist.'] });
  }

  private answer(
    route: ApiRoute,
    request: HttpRequest,
    response: HttpResponse,
    links: Links,
    data: unknown,
    parsed: { params: unknown; query: unknown },
  ): void {
    if (route.dryRun && (parsed.query as Record<string, unknown>)[route.dryRun.flag] === true) {
      const presentDraft = route.dryRun.present as (view: unknown, links: Links) => object;
      return sendJson(response, route.dryRun.status, presentDraft(data, links));
    }
    const success = successStatus(route, data);
    if (!success.body || !route.response) return sendJson(response, success.status, undefined);
    const present = route.response.present as (view: unknown, links: Links) => object;
    if (!route.response.list) return sendJson(response, route.status, present(data, links));
    const page = data as Page<unknown>;
    const { page: number, page_size: pageSize } = parsed.query as { page: number; page_size: number };
    // Django REST framework answers a page past the end with 404 "Invalid page."
    if (number > lastPage(page.count, pageSize)) throw new ApiError(404, { detail: 'Invalid page.' });
    // From the raw target, not `new URL(...)`: an absolute-form or odd target would make it throw.
    const target = request.url ?? '';
    const queryStart = target.indexOf('?');
    const headers = paginationHeaders({
      baseUrl: `${links.origin}${request.path}`,
      query: new URLSearchParams(queryStart >= 0 ? target.slice(queryStart + 1) : ''),
      page: number,
      pageSize,
      count: page.count,
    });
    sendJson(
      response,
      route.status,
      page.items.map((item) => present(item, links)),
      headers,
    );
  }
}

/** A 400 naming the first query or body field whose text no service could store. */
function refuseUnstorable(query: Record<string, unknown>, body: unknown): void {
  const found = findUnstorableText(query) ?? findUnstorableText(body);
  if (found) throw new ApiError(400, { [found.field]: [found.message] });
}

/** The address the request came from. Forwarding headers are not trusted: any client can write them. */
function clientAddress(request: HttpRequest): string {
  return request.socket.remoteAddress ?? 'unknown';
}

/** A service's refusal as the HTTP answer: its status, its body, and the headers that status calls for. */
export function refusal(reply: Exclude<RequestReply<unknown> | ThrottledReply, { status: 'ok' }>): ApiError {
  if (reply.code === 429) {
    return new ApiError(429, { detail: reply.detail }, { 'Retry-After': String(reply.retry_after_s) });
  }
  const headers: Record<string, string> = reply.code === 401 ? { 'WWW-Authenticate': 'Token' } : {};
  return new ApiError(reply.code, reply.fields ?? { detail: reply.detail ?? 'Request refused.' }, headers);
}

function validate(schema: z.ZodType, value: unknown): unknown {
  const parsed = validateRequest(schema, value);
  if (parsed.ok) return parsed.value;
  const { fields, detail } =
    parsed.reply.status === 'error' ? parsed.reply : { fields: undefined, detail: undefined };
  throw new ApiError(400, fields ?? { detail: detail ?? 'Invalid input.' });
}

export function sendError(response: HttpResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof ApiError) return sendJson(response, error.status, error.body, error.headers);
  // ServiceRequester's 503 (no responder, timeout) and any other HttpException keep their status.
  if (error instanceof HttpException) {
    const body = error.getResponse();
    const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
    return sendJson(response, error.getStatus(), {
      detail: typeof message === 'string' ? message : error.message,
    });
  }
  throw error;
}
