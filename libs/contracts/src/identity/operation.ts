import { z } from 'zod';
import { messages, queryInteger } from './wire-fields';

/** Who asks: the user the gateway resolved the `Authorization: Token` header to. */
export const callerSchema = z.strictObject({ user_uuid: z.uuid() });
export type Caller = z.infer<typeof callerSchema>;

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
 * whole `request` again, so nothing reaches it unchecked, whoever sends it. `C` is the caller as the
 * answering service needs it (the order service: the user; the vSphere adapter: with customers).
 */
export interface Operation<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  C extends z.ZodType = typeof callerSchema,
> {
  readonly pattern: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly request: z.ZodObject<{ caller: C; params: P; query: Q; body: B }>;
}

export type OperationRequest<O> =
  O extends Operation<infer P, infer Q, infer B, infer C>
    ? { caller: z.output<C>; params: z.output<P>; query: z.output<Q>; body: z.output<B> }
    : never;

/** The raw parts as the gateway forwards them: strings from the path and query, JSON from the body. */
export interface OperationPayload {
  caller: Caller;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
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
      pattern,
      params,
      query,
      body,
      request: z.strictObject({ caller, params, query, body }),
    };
  };
}

/** An operation of the order service: the caller is the user the gateway resolved. */
export const operation = operationsWithCaller(callerSchema);
