import { Pool, type Dispatcher } from 'undici';
import { connectorOf, type SoapTransportOptions } from '../soap/soap-transport';
import { toTransportError } from '../soap/transport-errors';

/** HTTP methods the client uses. */
export type RestMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One request to vCenter's `/api`: method, path (query included), JSON body, extra headers. */
export interface RestRequest {
  readonly method: RestMethod;
  readonly path: string;
  /** Sent as JSON when defined. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Per-call options: an AbortSignal and a timeout (ms). */
export interface RestCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** An HTTP answer of any status; the session and the operations decide what it means. */
export interface RestReply {
  readonly status: number;
  readonly body: string;
}

/** Sends one request; implemented by the transport and by scripted stand-ins in unit tests. */
export interface RestCaller {
  send(operation: string, request: RestRequest, options?: RestCallOptions): Promise<RestReply>;
}

/**
 * Connection settings of vCenter's `/api`: the same as the SOAP transport's (url, caPem,
 * verifySsl, timeoutMs, connections), plus an optional shared undici dispatcher.
 */
export interface RestTransportOptions extends Omit<SoapTransportOptions, 'apiVersion'> {
  /** An undici dispatcher to send through instead of a pool of the transport's own (not closed by it). */
  readonly dispatcher?: Dispatcher;
}

/**
 * HTTP(S) transport for the vSphere Automation API on an undici keep-alive Pool with the given
 * TLS settings (the SOAP transport's: `caPem`, `verifySsl`). Stateless apart from the pool.
 * Socket, TLS, timeout and abort failures become VimTransportError naming the operation.
 * Cost: one HTTP round trip per call.
 */
export class RestTransport implements RestCaller {
  /** `https://host[:port]` of vCenter. */
  readonly origin: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownPool: Pool | undefined;
  private readonly timeoutMs: number;

  constructor(options: RestTransportOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TypeError(`vCenter url must be http(s), got ${url.protocol}`);
    }
    this.origin = url.origin;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.ownPool =
      options.dispatcher === undefined
        ? new Pool(url.origin, {
            connections: options.connections ?? 8,
            keepAliveTimeout: 30_000,
            // The per-call AbortSignal is the timeout.
            headersTimeout: 0,
            bodyTimeout: 0,
            connect: connectorOf(options),
          })
        : undefined;
    this.dispatcher = options.dispatcher ?? (this.ownPool as Pool);
  }

  /** Sends one request and returns the status and body text, whatever the status. */
  async send(operation: string, request: RestRequest, options: RestCallOptions = {}): Promise<RestReply> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await this.dispatcher.request({
        origin: this.origin,
        method: request.method,
        path: request.path,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      return { status: res.statusCode, body: await res.body.text() };
    } catch (err) {
      throw toTransportError(operation, this.origin, err, {
        timedOut: timeout.aborted,
        aborted: options.signal?.aborted ?? false,
        timeoutMs,
      });
    }
  }

  /** Closes the transport's own keep-alive connections (a shared dispatcher is left open). */
  async close(): Promise<void> {
    if (this.ownPool !== undefined && !this.ownPool.closed) await this.ownPool.close();
  }
}
