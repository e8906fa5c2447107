import { z } from 'zod';
import { requestMetaSchema, type RequestMeta } from './request-meta';
import { messages, queryInteger } from './wire-fields';

/** The network address a request came from, as the gateway saw it: what login throttling counts by. */
const clientAddress = z.string().min(1).max(64);

/**
 * Who asks, and from where (the address throttles guesses of a current password): the
 * `Authorization: Token` key as the client sent it, which the answering service resolves itself
 * (the order service in the same round trip as the operation, the vSphere adapter by asking the
 * order service), so that a revoked token stops at once. Never a user id: no service acts on a
 * user the gateway asserts, so a stolen gateway credential cannot claim to be anyone (a request
 * naming `user_uuid` is refused as an unknown field).
 */
export const callerSchema = z.strictObject({
  token: z.string().min(1).max(200),
  address: clientAddress.optional(),
});
export type Caller = z.infer<typeof callerSchema>;

/** A caller once the order service has resolved its token: always a user. */
export type ResolvedCaller = Omit<Caller, 'token'> & { user_uuid: string };

/** Who asks a public operation (login): nobody yet, only an address. */
export const clientSchema = z.strictObject({ address: clientAddress });
export type Client = z.infer<typeof clientSchema>;

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 300;

/** Waldur's pagination parameters: `?page=2&page_size=50`. */
export const paginationQuery = {
  page: queryInteger(1, 1_000_000).default(1),
  page_size: queryInteger(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

/** One page of a list and the total count across pages (the `X-Result-Count` header). */
export interface Page<T> {
  items: T[];
  count: number;
}

export const uuidParams = z.strictObject({ uuid: z.uuid({ error: messages.uuid }) });
const noParams = z.strictObject({});
const noQuery = z.object({});
const noBody = z.strictObject({});

/**
 * One request a service answers for the gateway: a NATS pattern and the HTTP parts it is made of.
 * The gateway validates each part as it arrives (a 400 names the field); the service validates the
 * whole `request` again, so nothing reaches it unchecked, whoever sends it. `C` is the caller as it
 * travels (today always the token, `callerSchema`).
 */
export interface Operation<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  C extends z.ZodType = typeof callerSchema,
> {
  readonly auth: 'token';
  readonly pattern: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly request: z.ZodObject<{
    caller: C;
    params: P;
    query: Q;
    body: B;
    meta: z.ZodOptional<typeof requestMetaSchema>;
  }>;
}

/** An operation's request as a service's work sees it: validated, the caller resolved to a user. */
export type OperationRequest<O> =
  O extends Operation<infer P, infer Q, infer B>
    ? {
        caller: ResolvedCaller;
        params: z.output<P>;
        query: z.output<Q>;
        body: z.output<B>;
        meta?: RequestMeta;
      }
    : never;

/** The raw parts as the gateway forwards them: strings from the path and query, JSON from the body. */
export interface OperationPayload {
  caller: Caller;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  meta?: RequestMeta;
}

/** The `operation()` of a service whose requests carry the caller as `callerSchema` describes it. */
export function operationsWithCaller<C extends z.ZodType>(caller: C) {
  return function define<
    P extends z.ZodType = typeof noParams,
    Q extends z.ZodType = typeof noQuery,
    B extends z.ZodType = typeof noBody,
  >(pattern: string, parts: { params?: P; query?: Q; body?: B }): Operation<P, Q, B, C> {
    const params = (parts.params ?? noParams) as P;
    const query = (parts.query ?? noQuery) as Q;
    const body = (parts.body ?? noBody) as B;
    return {
      auth: 'token',
      pattern,
      params,
      query,
      body,
      request: z.strictObject({ caller, params, query, body, meta: requestMetaSchema.optional() }),
    };
  };
}

/** An operation of the order service: the caller is the user's token, resolved by the service. */
export const operation = operationsWithCaller(callerSchema);

/**
 * An operation anyone may ask, without a token (login): the gateway forwards the client's address
 * in place of a caller, and the service validates the whole request again as for `operation`.
 */
export interface PublicOperation<B extends z.ZodType> {
  readonly auth: 'none';
  readonly pattern: string;
  readonly params: typeof noParams;
  readonly query: typeof noQuery;
  readonly body: B;
  readonly request: z.ZodObject<{
    client: typeof clientSchema;
    params: typeof noParams;
    query: typeof noQuery;
    body: B;
  }>;
}

/** The raw parts of a public operation as the gateway forwards them. */
export interface PublicOperationPayload {
  client: Client;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export function publicOperation<B extends z.ZodType>(pattern: string, body: B): PublicOperation<B> {
  return {
    auth: 'none',
    pattern,
    params: noParams,
    query: noQuery,
    body,
    request: z.strictObject({ client: clientSchema, params: noParams, query: noQuery, body }),
  };
}
