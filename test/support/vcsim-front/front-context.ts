import type { IncomingHttpHeaders } from 'node:http';
import type { VimConnection } from '@app/vim25';
import { ApiError, unauthenticated } from './api-errors';
import { SESSION_HEADER, VCSIM_REST, type VcsimRest } from './vcsim-rest';

/** What every `/api` handler gets: vcsim's `/rest`, a SOAP connection to vcsim, the session ledger. */
export interface FrontContext {
  readonly rest: VcsimRest;
  /** The front's own SOAP session to vcsim (for the gaps it fills). */
  soap(): Promise<VimConnection>;
  /** Checks a user and password the way vCenter does (a SOAP Login to vcsim, logged out at once). */
  checkCredentials(username: string, password: string): Promise<boolean>;
  /** Session ids handed out by `POST /api/session` and not deleted. */
  readonly sessions: Set<string>;
  readonly counters: { sessionsCreated: number };
  /**
   * Items whose details vCenter cannot describe (tests set them): `GET .../vm-template/library-items/{id}`
   * answers 200 with an empty body, `null`, or the skeleton real vCenters were seen returning.
   */
  readonly undescribedTemplates: Map<string, UndescribedDetails>;
  /** While set, every `/api` request waits for it before it is served (tests hold a sync mid-way). */
  gate?: Promise<void>;
  /** Test control: a deploy answers this long after its VM exists (a slow clone; 0 = at once). */
  deployAnswerDelayMs: number;
  /** Deploys' name check and clone, one at a time (vCenter's DuplicateName cannot be raced). */
  readonly deploys: SerialQueue;
}

/** Runs work one at a time, in arrival order. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.catch(() => undefined).then(work);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** How vCenter 8 answers the details of a vm-template item it cannot describe. */
export type UndescribedDetails = 'empty' | 'null' | 'skeleton';

/** One `/api` request as the handlers see it. */
export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** An `/api` answer: status and JSON body (undefined: no body). */
export interface ApiAnswer {
  readonly status: number;
  readonly body?: unknown;
}

/** The session id the client sent (`vmware-api-session-id`), or undefined. */
export function sessionOf(req: ApiRequest): string | undefined {
  const v = req.headers[SESSION_HEADER];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The session id, checked with vcsim before the front does SOAP work for it (vcsim's own `/rest`
 * check only runs when the call reaches it). No or unknown id: UNAUTHENTICATED.
 */
export async function requireSession(ctx: FrontContext, req: ApiRequest): Promise<string> {
  const session = sessionOf(req);
  if (session === undefined) throw unauthenticated();
  const reply = await ctx.rest.send('GET', VCSIM_REST.session, { session });
  if (reply.status !== 200) throw unauthenticated();
  return session;
}

/** The request body as a JSON object; anything else is INVALID_ARGUMENT as on vCenter. */
export function jsonBody(req: ApiRequest): Record<string, unknown> {
  try {
    const v = JSON.parse(req.body) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // falls through
  }
  throw new ApiError(
    'INVALID_ARGUMENT',
    'The request body is not a JSON object.',
    'com.vmware.vapi.rest.httpRequestBodyInvalid',
  );
}
