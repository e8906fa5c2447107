import { createHash } from 'node:crypto';
import type { RestCallOptions } from './rest-transport';
import { RestSession, type RestSessionOptions } from './rest-session';

function keyOf(o: RestSessionOptions): string {
  const url = new URL(o.url);
  return `${url.protocol}//${url.host.toLowerCase()}\n${o.username}`;
}

function fingerprintOf(o: RestSessionOptions): string {
  const ca = o.caPem === undefined ? '' : ([] as string[]).concat(o.caPem).join('\n');
  return createHash('sha256')
    .update(JSON.stringify([o.password, ca, o.verifySsl ?? true]))
    .digest('hex');
}

/**
 * The process's vSphere Automation sessions: one RestSession per (vCenter url, username),
 * shared by every caller. New credentials or TLS settings for the same key give a new session;
 * the old one is ended at once. No I/O until a session is used.
 */
export class RestSessionRegistry {
  private readonly sessions = new Map<string, { fingerprint: string; session: RestSession }>();
  private readonly retiring = new Set<Promise<void>>();

  /** The shared session for `options` (created on first use; logs in lazily). */
  get(options: RestSessionOptions): RestSession {
    const key = keyOf(options);
    const fingerprint = fingerprintOf(options);
    const existing = this.sessions.get(key);
    if (existing?.fingerprint === fingerprint) return existing.session;
    if (existing) {
      const done = existing.session.close().finally(() => this.retiring.delete(done));
      this.retiring.add(done);
    }
    const session = new RestSession(options);
    this.sessions.set(key, { fingerprint, session });
    return session;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Ends every session (shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()].map((e) => e.session.close());
    this.sessions.clear();
    await Promise.all([...all, ...this.retiring]);
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
