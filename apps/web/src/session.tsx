import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiClient } from './api/client';
import { openEventStream, type FeedEvent, type StreamStatus } from './api/event-stream';
import type { Project, User } from './api/types';

const TOKEN_KEY = 'vmm.token';
const PROJECT_KEY = 'vmm.project';

/** The token lives for the browser tab only (sessionStorage): closing the tab signs out. */
export const tokenStore = {
  read: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  write: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(PROJECT_KEY);
  },
};

type Listener = (event: FeedEvent) => void;

export interface Session {
  api: ApiClient;
  user: User;
  projects: Project[];
  project: Project | undefined;
  selectProject: (uuid: string) => void;
  streamStatus: StreamStatus;
  /** Every event of the one stream the session keeps open; answers the unsubscribe. */
  subscribe: (listener: Listener) => () => void;
  signOut: () => void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Calls `listener` with each event of `type` while the component is mounted. */
export function useFeed(types: readonly string[], listener: (event: FeedEvent) => void): void {
  const { subscribe } = useSession();
  const latest = useRef(listener);
  latest.current = listener;
  const key = types.join(',');
  useEffect(
    () =>
      subscribe((event) => {
        if (key.split(',').includes(event.type)) latest.current(event);
      }),
    [subscribe, key],
  );
}

interface ProviderProps {
  token: string;
  user: User;
  projects: Project[];
  onSignOut: () => void;
  children: ReactNode;
}

/** The signed-in session: the API client, the project chosen, and the one live event stream. */
export function SessionProvider({ token, user, projects, onSignOut, children }: ProviderProps) {
  const [projectUuid, setProjectUuid] = useState<string | undefined>(
    () => sessionStorage.getItem(PROJECT_KEY) ?? projects[0]?.uuid,
  );
  const [streamStatus, setStreamStatus] = useState<StreamStatus>('connecting');
  const listeners = useRef(new Set<Listener>());
  const [api] = useState(() => new ApiClient(token, onSignOut));
  const [subscribe] = useState(() => (listener: Listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  });

  useEffect(
    () =>
      openEventStream({
        token,
        onEvent: (event) => listeners.current.forEach((listener) => listener(event)),
        onStatus: setStreamStatus,
        onUnauthorized: onSignOut,
      }),
    [token, onSignOut],
  );

  const project = projects.find((p) => p.uuid === projectUuid) ?? projects[0];
  const session: Session = {
    api,
    user,
    projects,
    project,
    selectProject: (uuid) => {
      sessionStorage.setItem(PROJECT_KEY, uuid);
      setProjectUuid(uuid);
    },
    streamStatus,
    subscribe,
    signOut: onSignOut,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
