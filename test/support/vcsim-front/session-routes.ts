import { ApiError, unauthenticated } from './api-errors';
import { sessionOf, type ApiAnswer, type ApiRequest, type FrontContext } from './front-context';
import { VCSIM_REST } from './vcsim-rest';

function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * `POST /api/session` (basic auth) → 201 with the id as a JSON string. The credentials are checked
 * like vCenter checks them (vcsim's `/rest` takes any non-empty pair); the session itself is
 * vcsim's, so expiry and DELETE behave as vcsim's.
 */
export async function createSession(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const credentials = basicCredentials(req.headers.authorization);
  if (credentials === undefined || !(await ctx.checkCredentials(credentials.username, credentials.password)))
    throw unauthenticated();
  const authorization = req.headers.authorization ?? '';
  const reply = await ctx.rest.send('POST', VCSIM_REST.session, { authorization });
  if (reply.status !== 200 || typeof reply.value !== 'string') throw unauthenticated();
  ctx.sessions.add(reply.value);
  ctx.counters.sessionsCreated++;
  return { status: 201, body: reply.value };
}

/** `GET /api/session` → the session's user and times. */
export async function getSession(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const body = await ctx.rest.ok(
    'GET',
    VCSIM_REST.session,
    { operation: 'session.get', notFound: unauthenticated },
    { session: sessionOf(req) },
  );
  return { status: 200, body };
}

/** `DELETE /api/session` → 204; the id is unknown from then on. */
export async function deleteSession(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const session = sessionOf(req);
  if (session === undefined) throw unauthenticated();
  const reply = await ctx.rest.send('DELETE', VCSIM_REST.session, { session });
  if (reply.status === 401) throw unauthenticated();
  if (reply.status !== 200) {
    throw new ApiError(
      'ERROR',
      `session.delete failed: HTTP ${reply.status}`,
      'com.vmware.vapi.std.errors.error',
    );
  }
  ctx.sessions.delete(session);
  return { status: 204 };
}
