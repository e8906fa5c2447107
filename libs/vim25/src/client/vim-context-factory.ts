import type { SoapCallOptions } from '../soap/soap-transport';
import { vimSessions, type VimSessionRegistry } from '../session/session-registry';
import type { VimSession, VimSessionOptions } from '../session/vim-session';
import type { VimContext } from '../types/vim-context';

/** A VimContext bound to a shared session. */
export interface VimConnection extends VimContext {
  readonly session: VimSession;
}

/**
 * Opens (or joins) the process's session for (url, username) and returns the context that the
 * inventory readers and VM operations take. Cost: RetrieveServiceContent + Login the first
 * time per session, nothing afterwards. Wrong credentials: VimFault InvalidLogin.
 */
export async function connectVim(
  options: VimSessionOptions,
  call: SoapCallOptions = {},
  registry: VimSessionRegistry = vimSessions,
): Promise<VimConnection> {
  const session = registry.get(options);
  const content = await session.serviceContent(call);
  await session.ensureLoggedIn(call);
  return { caller: session, content, serverAddress: session.transport.sdkUrl.host, session };
}
