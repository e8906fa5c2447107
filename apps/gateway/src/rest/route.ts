import type { Operation, PublicOperation } from '@app/contracts';
import type { z } from 'zod';
import type { HttpHandler, HttpMethod, HttpRequest, HttpResponse } from './http-types';
import type { Links } from './links';

export type AnyOperation = Operation<z.ZodType, z.ZodType, z.ZodType, z.ZodType> | PublicOperation<z.ZodType>;

/**
 * A REST endpoint answered by a service over NATS: everything the router and the OpenAPI document
 * need. Its operation says whether it takes a token (`auth: 'token'`) or is public (login).
 */
export interface ApiRoute {
  readonly kind: 'api';
  readonly method: HttpMethod;
  /** OpenAPI form, `/api/customers/{uuid}/`; Express's `:uuid` form is derived from it. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly operation: AnyOperation;
  readonly status: 200 | 201 | 202 | 204;
  /**
   * The service answers `null` when there was nothing left to do (a disk vCenter never created is
   * removed at once): then 204 without a body instead of `status` with the presented view.
   */
  readonly noContentWhenNull?: boolean;
  /** Checks a password, so may answer 429 (documented as such). */
  readonly throttled?: boolean;
  /**
   * Creates something and honours the `Idempotency-Key` header (IETF httpapi draft): the gateway
   * forwards the key, the answering service keeps the first answer under it.
   */
  readonly idempotent?: boolean;
  /**
   * A body field linking a customer that the answering service cannot check itself (the vSphere
   * adapter owns no customers): the gateway asks the order service first, as the caller.
   */
  readonly customerLink?: string;
  /**
   * A query flag that makes the answer another one (`?dry_run=true`: 200 with the order that would be
   * created, instead of 201 with the created order).
   */
  readonly dryRun?: {
    readonly flag: string;
    readonly status: 200;
    readonly schema: z.ZodType;
    readonly present: (view: never, links: Links) => object;
  };
  /** The response body's schema (one item for a list) and how a view becomes it (adds `url` and links). */
  readonly response?: {
    readonly schema: z.ZodType;
    readonly list: boolean;
    readonly present: (view: never, links: Links) => object;
  };
}

/** A route the gateway answers itself (the OpenAPI document, the docs page); public, without a token. */
export interface LocalRoute {
  readonly kind: 'local';
  readonly method: 'get';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly contentType: string;
  readonly handler: HttpHandler;
}

/** A route a Nest controller serves (`/health`): listed so the document covers everything served. */
export interface NestRoute {
  readonly kind: 'nest';
  readonly method: 'get';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
}

/**
 * A Server-Sent Events stream the gateway serves itself (`text/event-stream`), with a token: its
 * parameters are documented from the schemas that validate them.
 */
export interface StreamRoute {
  readonly kind: 'stream';
  readonly method: 'get';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  readonly params: z.ZodType;
  readonly query: z.ZodType;
  /** Answers with `origin` for links when the request's Host is unusable. */
  readonly handler: (request: HttpRequest, response: HttpResponse, origin: string) => Promise<void>;
}

export type AnyRoute = ApiRoute | LocalRoute | NestRoute | StreamRoute;

/** Whether a method's request carries a JSON body (read, validated and documented as such). */
export function hasJsonBody(method: HttpMethod): boolean {
  return method === 'post' || method === 'patch' || method === 'put';
}

/** The status of a successful answer carrying `data`, and whether it has a body. Pure. */
export function successStatus(route: ApiRoute, data: unknown): { status: number; body: boolean } {
  if (route.noContentWhenNull && data === null) return { status: 204, body: false };
  return { status: route.status, body: route.response !== undefined };
}

/** `/api/customers/{uuid}/` → `/api/customers/:uuid/` */
export function expressPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}

/** How a service's view becomes the public body: its schema and the function that adds the links. */
export interface Presenter<V> {
  schema: z.ZodType;
  present: (view: V, links: Links) => object;
}

/** One REST endpoint of the table: a 200 with the presented view (or list), a 204 without one. */
export function apiRoute<V>(
  method: ApiRoute['method'],
  path: string,
  operation: AnyOperation,
  meta: {
    operationId: string;
    summary: string;
    tag: string;
    status?: ApiRoute['status'];
    throttled?: boolean;
    noContentWhenNull?: boolean;
    idempotent?: boolean;
  },
  response?: { resource: Presenter<V>; list?: boolean },
): ApiRoute {
  return {
    kind: 'api',
    method,
    path,
    operation,
    operationId: meta.operationId,
    summary: meta.summary,
    tag: meta.tag,
    status: meta.status ?? (response ? 200 : 204),
    throttled: meta.throttled ?? false,
    idempotent: meta.idempotent ?? false,
    noContentWhenNull: meta.noContentWhenNull ?? false,
    response: response && {
      schema: response.resource.schema,
      list: response.list ?? false,
      present: response.resource.present,
    },
  };
}
