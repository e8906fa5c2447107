import { KeyedSessionRegistry } from '../session/keyed-session-registry';
import type { RestCallOptions } from './rest-transport';
import { RestSession, type RestSessionOptions } from './rest-session';

/**
 * The process's vSphere Automation sessions: one RestSession per (vCenter url, username), shared
 * by every caller. New credentials or TLS settings for the same key give a new session; the old
 * one is ended at once.
 */
export class RestSessionRegistry extends KeyedSessionRegistry<RestSessionOptions, RestSession> {
  constructor() {
    super((options) => new RestSession(options));
  }
}

/** The process-wide registry (one REST session per vCenter and user per process). */
export const restSessions = new RestSessionRegistry();

/**
 * Opens (or joins) the process's REST session for (url, username): `POST /api/session` the
 * first time, nothing afterwards. Wrong credentials: VapiError UNAUTHENTICATED.
 */
export async function connectRest(
  options: RestSessionOptions,
  call: RestCallOptions = {},
  registry: RestSessionRegistry = restSessions,
): Promise<RestSession> {
  const session = registry.get(options);
  await session.ensureSession(call);
  return session;
}
