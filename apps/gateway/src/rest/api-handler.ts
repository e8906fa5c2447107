import { HttpException, Inject, Injectable } from '@nestjs/common';
import {
  CUSTOMER_OPERATIONS,
  uuidOfHyperlink,
  validateRequest,
  type Caller,
  type OperationPayload,
  type Page,
  type RequestReply,
  type ThrottledReply,
} from '@app/contracts';
import type { z } from 'zod';
import { CONFIG, type GatewayConfig } from '../config/gateway.config';
import { ServiceRequester } from '../services/service-requester';
import { CallerResolver, tokenFromHeader } from './caller-resolver';
import { ClientAddresses } from './client-address';
import { readIdempotencyKey } from './idempotency-key-header';
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
  private readonly addresses: ClientAddresses;

  constructor(
    private readonly callers: CallerResolver,
    private readonly requester: ServiceRequester,
    @Inject(CONFIG) config: Pick<GatewayConfig, 'TRUSTED_PROXIES'>,
  ) {
    this.addresses = new ClientAddresses(config.TRUSTED_PROXIES);
  }

  async handle(
    route: ApiRoute,
    request: HttpRequest,
    response: HttpResponse,
    fallbackOrigin: string,
  ): Promise<void> {
    try {
      const address = this.addresses.of(request.socket.remoteAddress, request.headers['x-forwarded-for']);
      const who = this.who(route, request, address);
      const { params, query, body, idempotencyKey } = await this.validated(route, request, who);
      if (route.customerLink && 'caller' in who)
        await this.checkCustomer(who.caller, body, route.customerLink);
      // The raw parts travel on: the service validates the very same schemas again.
      const payload = {
        ...who,
        params: request.params,
        query: request.query,
        body,
        ...('caller' in who && {
          meta: {
            deadline: this.requester.deadlineFromNow(),
            ...(idempotencyKey !== undefined && { idempotency_key: idempotencyKey }),
          },
        }),
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
   * Who the service is told asks. Public operations (login) carry the client's address instead.
   * Every other request carries the caller's token as the client sent it, and the address: the
   * answering service resolves the token itself (the order service in the same round trip, it owns
   * the tokens; the vSphere adapter by asking the order service), so no service acts on a user the
   * gateway asserts, and a stolen gateway credential cannot claim to be anyone.
   */
  private who(
    route: ApiRoute,
    request: HttpRequest,
    address: string,
  ): { client: { address: string } } | { caller: Caller } {
    if (route.operation.auth === 'none') return { client: { address } };
    return { caller: { token: tokenFromHeader(request.headers.authorization), address } };
  }

  /**
   * The request's parts, validated. A caller whose token only the service resolves is still told 401
   * before 400, as Django REST framework authenticates first: the token is checked here when a
   * part is refused (a refusal costs the extra round trip, a valid request does not).
   */
  private async validated(
    route: ApiRoute,
    request: HttpRequest,
    who: ReturnType<ApiHandler['who']>,
  ): Promise<{ params: unknown; query: unknown; body: unknown; idempotencyKey?: string }> {
    try {
      const idempotencyKey = route.idempotent
        ? readIdempotencyKey(request.headers['idempotency-key'])
        : undefined;
      const params = validate(route.operation.params, request.params);
      const query = validate(route.operation.query, request.query);
      const body = hasJsonBody(route.method) ? await readJsonBody(request) : {};
      validate(route.operation.body, body);
      refuseUnstorable({ ...request.query }, body);
      return { params, query, body, idempotencyKey };
    } catch (error) {
      if ('caller' in who) await this.callers.resolve(request.headers.authorization);
      throw error;
    }
  }

  /**
   * A linked customer the caller cannot see (or that does not exist) is a bad link: 400 naming the
   * field. Asked with the caller's token; a token the order service refuses is the 401 it is.
   */
  private async checkCustomer(caller: Caller, body: unknown, field: string): Promise<void> {
    const link = (body as Record<string, unknown>)[field];
    if (typeof link !== 'string') return; // the operation's own schema names the field
    const payload: OperationPayload = {
      caller,
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
    if (reply.code === 401) throw refusal(reply);
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
