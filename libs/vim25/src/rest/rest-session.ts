import { VimTransportError } from '../soap/vim-errors';
import { abortable } from '../session/abortable';
import { REST_PATHS, SESSION_HEADER } from './rest-paths';
import {
  RestTransport,
  type RestCallOptions,
  type RestCaller,
  type RestReply,
  type RestRequest,
  type RestTransportOptions,
} from './rest-transport';
import { vapiErrorOf } from './vapi-error';

/** Connection and credentials of one vSphere Automation session. */
export interface RestSessionOptions extends RestTransportOptions {
  readonly username: string;
  readonly password: string;
}

/** What the session sends through: the REST transport (or a scripted stand-in in unit tests). */
export type RestSessionTransport = RestCaller & { readonly origin: string; close(): Promise<void> };

/** Turns a 2xx answer's JSON into the operation's result (throws on a body of the wrong shape). */
export type ReplyDecoder<T> = (json: unknown) => T;

/** What the Content Library and vm-template operations call: one decoded `/api` call. */
export interface VapiCaller {
  invoke<T>(
    operation: string,
    request: RestRequest,
    decode: ReplyDecoder<T>,
    options?: RestCallOptions,
  ): Promise<T>;
}

function parseJson(operation: string, origin: string, reply: RestReply): unknown {
  if (reply.body.trim() === '') return undefined;
  try {
    return JSON.parse(reply.body) as unknown;
  } catch {
    throw new VimTransportError(
      operation,
      'protocol',
      // The body is not quoted: what answers there may not be vCenter.
      `${operation} to ${origin} answered HTTP ${reply.status} with a body that is not JSON`,
    );
  }
}

/**
 * One vSphere Automation session shared by every caller: `POST /api/session` with basic auth on
 * first use (single flight), the id sent as `vmware-api-session-id`, a new session and one replay
 * when vCenter answers 401, `DELETE /api/session` on close. Non-2xx answers become VapiError.
 * Cost: the wrapped call, plus one `POST /api/session` when a (re)login is needed.
 */
export class RestSession implements VapiCaller {
  readonly transport: RestSessionTransport;
  private sessionId: string | undefined;
  private generation = 0;
  private loginInFlight: Promise<void> | undefined;
  private closed = false;
  private logins = 0;

  constructor(
    private readonly options: RestSessionOptions,
    transport?: RestSessionTransport,
  ) {
    this.transport = transport ?? new RestTransport(options);
  }

  /** The vCenter user of this session. */
  get username(): string {
    return this.options.username;
  }

  /** How many sessions this object has created (1 + re-creations). */
  get loginCount(): number {
    return this.logins;
  }

  /** Creates the session now unless one is open (single flight). Wrong credentials: VapiError UNAUTHENTICATED. */
  async ensureSession(options: RestCallOptions = {}): Promise<void> {
    if (this.sessionId === undefined) await this.renew(this.generation, options);
  }

  /**
   * Sends `request` with the session id; on 401 creates a new session and replays once. A 2xx
   * answer's JSON goes through `decode`; anything else throws VapiError.
   */
  async invoke<T>(
    operation: string,
    request: RestRequest,
    decode: ReplyDecoder<T>,
    options: RestCallOptions = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) {
        throw new VimTransportError(
          operation,
          'aborted',
          `${operation}: the vCenter REST session to ${this.transport.origin} is closed`,
        );
      }
      await this.ensureSession(options);
      const generation = this.generation;
      const reply = await this.transport.send(
        operation,
        { ...request, headers: { ...request.headers, [SESSION_HEADER]: this.sessionId ?? '' } },
        options,
      );
      if (reply.status === 401 && attempt === 0) {
        await this.renew(generation, options);
        continue;
      }
      if (reply.status < 200 || reply.status > 299) throw vapiErrorOf(operation, reply.status, reply.body);
      const json = parseJson(operation, this.transport.origin, reply);
      try {
        return decode(json);
      } catch (err) {
        throw new VimTransportError(
          operation,
          'protocol',
          `${operation} to ${this.transport.origin} answered a body of an unexpected shape: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
    }
  }

  /** Ends the session (`DELETE /api/session`, best effort) and closes the connections; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.loginInFlight?.catch(() => undefined);
    const id = this.sessionId;
    this.sessionId = undefined;
    if (id !== undefined) {
      await this.transport
        .send(
          'DeleteSession',
          { method: 'DELETE', path: REST_PATHS.session, headers: { [SESSION_HEADER]: id } },
          { timeoutMs: 10_000 },
        )
        .catch(() => undefined);
    }
    await this.transport.close();
  }

  private renew(seenGeneration: number, options: RestCallOptions): Promise<void> {
    if (this.generation !== seenGeneration && this.sessionId !== undefined) return Promise.resolve();
    this.loginInFlight ??= this.login().finally(() => {
      this.loginInFlight = undefined;
    });
    return abortable(
      this.loginInFlight,
      options.signal,
      () =>
        new VimTransportError(
          'CreateSession',
          'aborted',
          `CreateSession to ${this.transport.origin} was aborted by the caller`,
        ),
    );
  }

  private async login(): Promise<void> {
    this.sessionId = undefined;
    const basic = Buffer.from(`${this.options.username}:${this.options.password}`).toString('base64');
    const reply = await this.transport.send(
      'CreateSession',
      { method: 'POST', path: REST_PATHS.session, headers: { authorization: `Basic ${basic}` } },
      { timeoutMs: this.options.timeoutMs },
    );
    if (reply.status < 200 || reply.status > 299)
      throw vapiErrorOf('CreateSession', reply.status, reply.body);
    const id = parseJson('CreateSession', this.transport.origin, reply);
    if (typeof id !== 'string' || id === '') {
      throw new VimTransportError(
        'CreateSession',
        'protocol',
        `CreateSession to ${this.transport.origin} answered HTTP ${reply.status} without a session id`,
      );
    }
    this.sessionId = id;
    this.generation++;
    this.logins++;
  }
}
