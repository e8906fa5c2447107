import { createHash } from 'node:crypto';
import { VimSession, type VimSessionOptions } from './vim-session';

function keyOf(o: VimSessionOptions): string {
  const url = new URL(o.url);
  return `${url.protocol}//${url.host.toLowerCase()}\n${o.username}`;
}

function fingerprintOf(o: VimSessionOptions): string {
  const ca = o.caPem === undefined ? '' : ([] as string[]).concat(o.caPem).join('\n');
  return createHash('sha256')
    .update(
      JSON.stringify([o.password, ca, o.verifySsl ?? true, new URL(o.url).pathname, o.apiVersion ?? '']),
    )
    .digest('hex');
}

/**
 * The process's vCenter sessions: one VimSession per (vCenter url, username), shared by every
 * caller. New credentials or TLS settings for the same key give a new session; the old one is
 * logged out at once (a later call through it fails with "session is closed"). No I/O until a
 * session is used.
 */
export class VimSessionRegistry {
  private readonly sessions = new Map<string, { fingerprint: string; session: VimSession }>();
  private readonly retiring = new Set<Promise<void>>();

  /** The shared session for `options` (created on first use; logs in lazily). */
  get(options: VimSessionOptions): VimSession {
    const key = keyOf(options);
    const fingerprint = fingerprintOf(options);
    const existing = this.sessions.get(key);
    if (existing?.fingerprint === fingerprint) return existing.session;
    if (existing) this.retire(existing.session);
    const session = new VimSession(options);
    this.sessions.set(key, { fingerprint, session });
    return session;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Logs out every session (shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()].map((e) => e.session.close());
    this.sessions.clear();
    await Promise.all([...all, ...this.retiring]);
  }

  private retire(session: VimSession): void {
    const done = session.close().finally(() => this.retiring.delete(done));
    this.retiring.add(done);
  }
}

/** The process-wide registry (one session per vCenter and user per process). */
export const vimSessions = new VimSessionRegistry();
