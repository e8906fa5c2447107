import type { IncomingMessage, ServerResponse } from 'node:http';

/** The few Express 5 request fields the REST layer reads (the project carries no @types/express). */
export interface HttpRequest extends IncomingMessage {
  params: Record<string, string>;
  query: Record<string, unknown>;
  protocol: string;
  path: string;
}

export type HttpResponse = ServerResponse;
export type HttpHandler = (request: HttpRequest, response: HttpResponse) => Promise<void>;
export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** Express's router layer, as listed by `app.router.stack`: what the gateway really serves. */
export interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

type Middleware = (request: HttpRequest, response: HttpResponse, next: (error?: unknown) => void) => void;
type ErrorMiddleware = (
  error: unknown,
  request: HttpRequest,
  response: HttpResponse,
  next: (error?: unknown) => void,
) => void;

export interface ExpressApp {
  get(path: string, handler: (request: HttpRequest, response: HttpResponse) => void): void;
  post(path: string, handler: (request: HttpRequest, response: HttpResponse) => void): void;
  patch(path: string, handler: (request: HttpRequest, response: HttpResponse) => void): void;
  put(path: string, handler: (request: HttpRequest, response: HttpResponse) => void): void;
  delete(path: string, handler: (request: HttpRequest, response: HttpResponse) => void): void;
  use(handler: Middleware | ErrorMiddleware): void;
  disable(setting: string): void;
  router: { stack: RouterLayer[] };
}

/** An answer other than success: the status, Waldur's body, and headers such as `WWW-Authenticate`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail: string } | Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
    this.name = 'ApiError';
  }
}

export function sendJson(
  response: HttpResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    ...(text
      ? { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) }
      : {}),
  });
  response.end(text);
}
