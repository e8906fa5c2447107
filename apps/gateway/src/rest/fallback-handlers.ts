import { sendJson, type HttpRequest, type HttpResponse } from './http-types';
import type { AnyRoute } from './route';

type Next = (error?: unknown) => void;

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/api/customers/{uuid}/` as Express matches it: any segment for a parameter, case-insensitive, optional trailing slash. */
function pathPattern(path: string): RegExp {
  const escaped = path
    .replace(/\/$/, '')
    .split(/\{[a-z_]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/** The methods each path of the route table answers, HEAD with GET (Express answers HEAD for GET routes). */
export function allowedMethods(routes: readonly AnyRoute[]): PathMethods[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>(['OPTIONS']);
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: pathPattern(path), methods }));
}

/**
 * After the routes: a known path asked with a method it does not answer is 405 with `Allow`
 * (OPTIONS answers 204 with `Allow`); an unknown path is 404. Both in JSON, as DRF says them.
 */
export function methodFallback(routes: readonly AnyRoute[]) {
  const paths = allowedMethods(routes);
  return (request: HttpRequest, response: HttpResponse, next: Next): void => {
    const path = request.path;
    const allowed = new Set<string>();
    for (const entry of paths)
      if (entry.pattern.test(path)) for (const method of entry.methods) allowed.add(method);
    if (allowed.size === 0) return next();
    const allow = [...allowed].sort().join(', ');
    if (request.method === 'OPTIONS') return sendJson(response, 204, undefined, { Allow: allow });
    const method = JSON.stringify((request.method ?? '').slice(0, 20));
    sendJson(response, 405, { detail: `Method ${method} not allowed.` }, { Allow: allow });
  };
}

export function notFound(_request: HttpRequest, response: HttpResponse): void {
  sendJson(response, 404, { detail: 'Not found.' });
}

/**
 * Express's own errors (a path parameter that is not valid percent-encoding, say) as JSON rather
 * than its HTML page: a 4xx keeps its status and gets a plain message; anything else is a bug.
 */
export function errorHandler(onBug: (error: unknown) => void) {
  return (error: unknown, _request: HttpRequest, response: HttpResponse, _next: Next): void => {
    const status = (error as { status?: unknown } | null)?.status;
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendJson(response, status, {
        detail: status === 400 ? 'Malformed request URL.' : 'Request refused.',
      });
    }
    onBug(error);
    sendJson(response, 500, { detail: 'Internal server error.' });
  };
}
