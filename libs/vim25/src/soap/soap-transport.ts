import { Pool } from 'undici';
import { guardedConnector, type AddressCheck, type HostLookup } from './guarded-connector';
import { toTransportError } from './transport-errors';
import { VimTransportError } from './vim-errors';

/** Connection settings of one vCenter SOAP endpoint. */
export interface SoapTransportOptions {
  /** vCenter address: `https://host[:port]` (the `/sdk` path is added when missing). */
  readonly url: string;
  /** PEM CA certificate(s) to trust in addition to nothing else (replaces the system store). */
  readonly caPem?: string | readonly string[];
  /** Verify the server certificate and host name; default true (the offering's `verify_ssl`). */
  readonly verifySsl?: boolean;
  /** Default per-call timeout in ms; default 60 s. */
  readonly timeoutMs?: number;
  /** Keep-alive connections kept open to vCenter; default 8. */
  readonly connections?: number;
  /** Value of the SOAPAction header's version; default `8.0.1.0`. */
  readonly apiVersion?: string;
  /**
   * Asked about every address before a connection is opened to it (the host name resolved at each
   * new connection, and the socket opened to the address checked); none: any address.
   */
  readonly addressCheck?: AddressCheck;
  /** Resolving the host plus the TCP and TLS handshakes, in ms; default 10 s. */
  readonly connectTimeoutMs?: number;
  /** The resolver (tests stand in a rebinding DNS); default node:dns. */
  readonly lookup?: HostLookup;
}

/** The undici `connect` option of a transport's pool: TLS settings, the address check, the timeout. */
export function connectorOf(options: SoapTransportOptions) {
  return guardedConnector({
    ca: options.caPem === undefined ? undefined : ([] as string[]).concat(options.caPem),
    rejectUnauthorized: options.verifySsl ?? true,
    check: options.addressCheck,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    lookup: options.lookup,
  });
}

/** Per-call options; every network call can be aborted and has a timeout. */
export interface SoapCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** `vmware_soap_session` cookie value to send (the session layer supplies it). */
  readonly cookie?: string;
}

/** A SOAP answer: HTTP 200 (a response) or 500 (a fault); anything else is a transport error. */
export interface SoapReply {
  readonly status: 200 | 500;
  readonly body: string;
  /** New `vmware_soap_session` cookie value when vCenter set one (Login does). */
  readonly sessionCookie?: string;
}

/** Sends one SOAP envelope; implemented by the transport and, above it, by the session. */
export interface SoapCaller {
  call(operation: string, envelope: string, options?: SoapCallOptions): Promise<SoapReply>;
}

const COOKIE = 'vmware_soap_session';

function sessionCookieOf(header: string | string[] | undefined): string | undefined {
  for (const line of Array.isArray(header) ? header : header ? [header] : []) {
    const first = line.split(';', 1)[0].trim();
    if (first.startsWith(`${COOKIE}=`)) return first.slice(COOKIE.length + 1);
  }
  return undefined;
}

/**
 * HTTP(S) transport for vim25: POSTs envelopes to `<url>/sdk` over an undici keep-alive Pool
 * with the given TLS settings. Stateless apart from the pool: the cookie is passed per call.
 * Cost: one HTTP round trip per call.
 */
export class SoapTransport implements SoapCaller {
  /** The `/sdk` endpoint. */
  readonly sdkUrl: URL;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly soapAction: string;

  constructor(options: SoapTransportOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TypeError(`vCenter url must be http(s), got ${url.protocol}`);
    }
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/sdk';
    url.username = '';
    url.password = '';
    this.sdkUrl = url;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.soapAction = `"urn:vim25/${options.apiVersion ?? '8.0.1.0'}"`;
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 8,
      keepAliveTimeout: 30_000,
      // The per-call AbortSignal below is the timeout; WaitForUpdatesEx may legitimately hold
      // the response for minutes.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: connectorOf(options),
    });
  }

  /** POSTs one envelope (SOAP method `operation`) and returns the 200/500 body. */
  async call(operation: string, envelope: string, options: SoapCallOptions = {}): Promise<SoapReply> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const endpoint = this.sdkUrl.origin;
    const headers: Record<string, string> = {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: this.soapAction,
    };
    if (options.cookie) headers.cookie = `${COOKIE}=${options.cookie}`;
    try {
      const res = await this.pool.request({
        method: 'POST',
        path: this.sdkUrl.pathname,
        headers,
        body: envelope,
        signal,
      });
      if (res.statusCode !== 200 && res.statusCode !== 500) {
        // Not vCenter's answer: its body is never read into a message (it may be another
        // service's, reached through a wrong backend_url).
        await res.body.dump();
        throw new VimTransportError(
          operation,
          'http',
          `${operation} to ${endpoint} answered HTTP ${res.statusCode}, which a vCenter does not`,
          { status: res.statusCode },
        );
      }
      const body = await res.body.text();
      return { status: res.statusCode, body, sessionCookie: sessionCookieOf(res.headers['set-cookie']) };
    } catch (err) {
      throw toTransportError(operation, endpoint, err, {
        timedOut: timeout.aborted,
        aborted: options.signal?.aborted ?? false,
        timeoutMs,
      });
    }
  }

  /** Closes the keep-alive connections (waits for calls in flight). */
  async close(): Promise<void> {
    if (!this.pool.closed) await this.pool.close();
  }
}
