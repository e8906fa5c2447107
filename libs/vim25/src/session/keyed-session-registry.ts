import { createHash } from 'node:crypto';

/** What every session kind shares for the registry: where it goes, as whom, and how it is ended. */
export interface SessionIdentity {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly caPem?: string | readonly string[];
  readonly verifySsl?: boolean;
}

function keyOf(o: SessionIdentity): string {
  const url = new URL(o.url);
  return `${url.protocol}//${url.host.toLowerCase()}\n${o.username}`;
}

/** Credentials and TLS settings (plus any extra the session kind names), hashed: never kept in clear. */
function fingerprintOf(o: SessionIdentity, extra: readonly string[]): string {
  const ca = o.caPem === undefined ? '' : ([] as string[]).concat(o.caPem).join('\n');
  return createHash('sha256')
    .update(JSON.stringify([o.password, ca, o.verifySsl ?? true, ...extra]))
    .digest('hex');
}

/**
 * One session per (vCenter url, username) per process, shared by every caller. New credentials or
 * TLS settings for the same key give a new session; the old one is ended at once. No I/O until a
 * session is used. The SOAP and the REST registries are this, with their own session kind.
 */
export class KeyedSessionRegistry<O extends SessionIdentity, S extends { close(): Promise<void> }> {
  private readonly sessions = new Map<string, { fingerprint: string; session: S }>();
  private readonly retiring = new Set<Promise<void>>();

  constructor(
    private readonly create: (options: O) => S,
    private readonly extraFingerprint: (options: O) => readonly string[] = () => [],
  ) {}

  /** The shared session for `options` (created on first use). */
  get(options: O): S {
    const key = keyOf(options);
    const fingerprint = fingerprintOf(options, this.extraFingerprint(options));
    const existing = this.sessions.get(key);
    if (existing?.fingerprint === fingerprint) return existing.session;
    if (existing) this.retire(existing.session);
    const session = this.create(options);
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

  private retire(session: S): void {
    const done = session.close().finally(() => this.retiring.delete(done));
    this.retiring.add(done);
  }
}
