import {
  SoapTransport,
  type SoapCallOptions,
  type SoapCaller,
  type SoapReply,
  type SoapTransportOptions,
} from '../soap/soap-transport';
import { VimFault, VimTransportError } from '../soap/vim-errors';
import { currentTime, retrieveServiceContent } from '../methods/service-instance';
import { login, logout } from '../methods/session-manager';
import type { ServiceContent, UserSession } from '../types/service-content';
import { abortable } from './abortable';
import { isNotAuthenticatedReply } from './not-authenticated';

/** Connection and credentials of one vCenter session. */
export interface VimSessionOptions extends SoapTransportOptions {
  readonly username: string;
  readonly password: string;
  /** Interval of the keep-alive call (CurrentTime) in ms; default 10 min; 0 = none. */
  readonly keepAliveMs?: number;
}

/** What the session sends through: the SOAP transport (or a scripted stand-in in unit tests). */
export type SessionTransport = SoapCaller & { readonly sdkUrl: URL; close(): Promise<void> };

/**
 * One vim25 login shared by every caller: a SoapCaller that adds the `vmware_soap_session`
 * cookie, logs in on first use (single flight: concurrent callers wait for one Login), logs in
 * again when vCenter answers NotAuthenticated (fault or missingSet form) and replays the call
 * once, keeps the session alive, and logs out on `close()`. Cost: the wrapped call, plus
 * RetrieveServiceContent + Login when a (re)login is needed.
 */
export class VimSession implements SoapCaller {
  readonly transport: SessionTransport;
  private cookie: string | undefined;
  private generation = 0;
  private loginInFlight: Promise<void> | undefined;
  private contentPromise: Promise<ServiceContent> | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private closed = false;
  private current: UserSession | undefined;
  private logins = 0;

  constructor(
    private readonly options: VimSessionOptions,
    transport?: SessionTransport,
  ) {
    this.transport = transport ?? new SoapTransport(options);
    const every = options.keepAliveMs ?? 600_000;
    if (every > 0) {
      // Only an open session is kept alive: an idle, never-used one must not log in for this.
      this.keepAlive = setInterval(() => {
        if (this.cookie !== undefined) void currentTime(this, { timeoutMs: 30_000 }).catch(() => undefined);
      }, every);
      this.keepAlive.unref();
    }
  }

  /** The vCenter user of this session. */
  get username(): string {
    return this.options.username;
  }

  /** The UserSession of the last successful Login, if any. */
  get userSession(): UserSession | undefined {
    return this.current;
  }

  /** How many Logins this object has made (1 + re-logins). */
  get loginCount(): number {
    return this.logins;
  }

  /** ServiceContent, read once (RetrieveServiceContent needs no session). */
  serviceContent(options: SoapCallOptions = {}): Promise<ServiceContent> {
    this.contentPromise ??= retrieveServiceContent(this.transport, { timeoutMs: options.timeoutMs }).catch(
      (err: unknown) => {
        this.contentPromise = undefined;
        throw err;
      },
    );
    return abortable(this.contentPromise, options.signal, () => this.abortedError('RetrieveServiceContent'));
  }

  /** Logs in now unless a session is already open (single flight). */
  async ensureLoggedIn(options: SoapCallOptions = {}): Promise<void> {
    if (this.cookie === undefined) await this.renew(this.generation, options);
  }

  /** Sends one envelope with the session cookie; re-logs in and replays once on NotAuthenticated. */
  async call(operation: string, envelope: string, options: SoapCallOptions = {}): Promise<SoapReply> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) {
        const origin = this.transport.sdkUrl.origin;
        throw new VimTransportError(
          operation,
          'aborted',
          `${operation}: the vCenter session to ${origin} is closed`,
        );
      }
      await this.ensureLoggedIn(options);
      const generation = this.generation;
      const reply = await this.transport.call(operation, envelope, { ...options, cookie: this.cookie });
      if (!isNotAuthenticatedReply(operation, reply)) return reply;
      if (attempt > 0) {
        if (reply.status === 500) return reply; // decoded by the caller into VimFault NotAuthenticated
        throw new VimFault(
          operation,
          'NotAuthenticated',
          'The session is not authenticated (after a fresh login)',
        );
      }
      await this.renew(generation, options);
    }
  }

  /** Logs out (best effort) and closes the connections; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    await this.loginInFlight?.catch(() => undefined);
    const cookie = this.cookie;
    this.cookie = undefined;
    if (cookie !== undefined && this.contentPromise !== undefined) {
      const content = await this.contentPromise.catch(() => undefined);
      if (content) {
        const withCookie: SoapCaller = {
          call: (op, env, o) => this.transport.call(op, env, { ...o, cookie }),
        };
        await logout(withCookie, content.sessionManager, { timeoutMs: 10_000 }).catch(() => undefined);
      }
    }
    await this.transport.close();
  }

  private renew(seenGeneration: number, options: SoapCallOptions): Promise<void> {
    if (this.generation !== seenGeneration && this.cookie !== undefined) return Promise.resolve();
    this.loginInFlight ??= this.login().finally(() => {
      this.loginInFlight = undefined;
    });
    return abortable(this.loginInFlight, options.signal, () => this.abortedError('Login'));
  }

  private async login(): Promise<void> {
    const content = await this.serviceContent();
    let cookie: string | undefined;
    const capture: SoapCaller = {
      call: async (op, env, o) => {
        const reply = await this.transport.call(op, env, o);
        cookie = reply.sessionCookie ?? cookie;
        return reply;
      },
    };
    const session = await login(
      capture,
      content.sessionManager,
      this.options.username,
      this.options.password,
      { timeoutMs: this.options.timeoutMs },
    );
    if (cookie === undefined) {
      throw new VimTransportError(
        'Login',
        'protocol',
        `Login to ${this.transport.sdkUrl.origin} set no vmware_soap_session cookie`,
      );
    }
    this.cookie = cookie;
    this.current = session;
    this.generation++;
    this.logins++;
  }

  private abortedError(operation: string): VimTransportError {
    return new VimTransportError(
      operation,
      'aborted',
      `${operation} to ${this.transport.sdkUrl.origin} was aborted by the caller`,
    );
  }
}
