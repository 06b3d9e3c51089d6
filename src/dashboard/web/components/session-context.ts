/** The signed-in session every page reads: the typed API, the principal, and its permissions. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import type { Endpoints } from '../api/endpoints';
import type { Me, Permission } from '../api/types';

export interface Session {
  api: ApiClient;
  calls: Endpoints;
  me: Me;
  can: (permission: Permission) => boolean;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}
