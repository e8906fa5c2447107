import { KeyedSessionRegistry } from './keyed-session-registry';
import { VimSession, type VimSessionOptions } from './vim-session';

/**
 * The process's vCenter sessions: one VimSession per (vCenter url, username), shared by every
 * caller. New credentials or TLS settings for the same key give a new session; the old one is
 * logged out at once (a later call through it fails with "session is closed").
 */
export class VimSessionRegistry extends KeyedSessionRegistry<VimSessionOptions, VimSession> {
  constructor() {
    super(
      (options) => new VimSession(options),
      (options) => [new URL(options.url).pathname, options.apiVersion ?? ''],
    );
  }
}

/** The process-wide registry (one session per vCenter and user per process). */
export const vimSessions = new VimSessionRegistry();
