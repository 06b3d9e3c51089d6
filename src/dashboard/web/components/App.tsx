/**
 * Signed out: the sign-in page. Signed in: the principal and its permissions from /api/v1/me,
 * then the shell and the page the URL fragment names. A refused token (401) signs out.
 */
import { useMemo, useState } from 'preact/hooks';
import { apiClient } from '../api/client';
import { endpoints } from '../api/endpoints';
import { forgetToken, storedToken, storeToken } from '../session';
import { ErrorNote } from './ErrorNote';
import { SessionContext, type Session } from './session-context';
import { Shell } from './Shell';
import { SignIn } from './SignIn';
import { useLoad } from './use-load';

export function App() {
  const [token, setToken] = useState(storedToken);
  const signOut = () => {
    forgetToken();
    setToken(null);
  };
  if (!token) {
    return <SignIn onToken={(issued) => (storeToken(issued), setToken(issued))} />;
  }
  return <SignedIn key={token} token={token} signOut={signOut} />;
}

function SignedIn({ token, signOut }: { token: string; signOut: () => void }) {
  const api = useMemo(() => apiClient(token, signOut), [token]);
  const calls = useMemo(() => endpoints(api), [api]);
  const me = useLoad(() => calls.me(), [calls]);
  const session = useMemo<Session | undefined>(() => {
    if (!me.value) return undefined;
    const allowed = new Set(me.value.allowed);
    return { api, calls, me: me.value, can: (permission) => allowed.has(permission) };
  }, [me.value]);
  if (!session) {
    return (
      <main class="signing-in">
        {me.error ? <ErrorNote error={me.error} /> : <p class="loading">Signing in…</p>}
        <button type="button" class="button plain" onClick={signOut}>
          Sign out
        </button>
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Shell signOut={signOut} />
    </SessionContext.Provider>
  );
}
