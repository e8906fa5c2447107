import type { Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { sendJson, type HttpRequest, type HttpResponse } from './http-types';

/** Longest request target accepted (path and query): 414 beyond it. */
export const MAX_URL_LENGTH = 4096;
/** Most query parameters accepted: 400 beyond. */
export const MAX_QUERY_PARAMETERS = 64;
// Node refuses request heads over 16 KiB (its default --max-http-header-size) itself: 431 below.

/**
 * Headers every answer carries. The API answers JSON that no browser should sniff, frame, cache or
 * run anything from; the docs page and its assets set their own CSP and caching.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

type Next = (error?: unknown) => void;

/** First middleware: the security headers, and bounds on the request target. */
export function hygieneMiddleware(request: HttpRequest, response: HttpResponse, next: Next): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
  // HTTP/1.1 requires a Host; Node would refuse its absence with a bare 400 (see hardenServer).
  if (request.httpVersion === '1.1' && !request.headers.host) {
    return sendJson(response, 400, { detail: 'Request without a Host header.' });
  }
  const url = request.url ?? '/';
  if (url.length > MAX_URL_LENGTH) {
    return sendJson(response, 414, { detail: `Request URI longer than ${MAX_URL_LENGTH} characters.` });
  }
  const query = url.indexOf('?');
  if (query >= 0 && url.slice(query + 1).split('&').length > MAX_QUERY_PARAMETERS) {
    return sendJson(response, 400, { detail: `More than ${MAX_QUERY_PARAMETERS} query parameters.` });
  }
  next();
}

/** A JSON answer written straight to a socket, for the errors Node meets before there is a request. */
function rawJsonAnswer(status: number, detail: string): string {
  const body = JSON.stringify({ detail });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** Node's HTTP parser errors, as the status a client should read. */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request header fields too large.'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request timeout.'];
  return [400, 'Malformed HTTP request.'];
}

/**
 * Bounds and answers at the socket level: time limits for slow clients, and a JSON answer (not
 * Node's bare status line) to a request Node cannot parse: headers too large, bad framing, an
 * invalid character, a CONNECT.
 */
export function hardenServer(server: Server): void {
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  // Node answers a missing Host with an empty 400 of its own; hygieneMiddleware answers it in JSON.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own check: once an answer has started on this socket, nothing more may be written.
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, detail] = clientErrorStatus(error.code);
    answerAndClose(socket, rawJsonAnswer(status, detail));
  });
  server.on('connect', (_request: unknown, socket: Duplex) => {
    answerAndClose(socket, rawJsonAnswer(405, 'Method "CONNECT" not allowed.'));
  });
}

/** How long a refused client has to read its answer before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * Writes the answer and closes. Closing our side only is not enough: a client still sending (the
 * rest of an oversized head, a body) would hold the half-open socket, and the gateway's shutdown
 * with it, for ever. So the connection is cut once the client had time to read.
 */
function answerAndClose(socket: Duplex, answer: string): void {
  socket.end(answer, () => setTimeout(() => socket.destroy(), LINGER_MS).unref());
}
