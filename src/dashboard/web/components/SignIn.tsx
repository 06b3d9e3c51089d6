/**
 * Sign-in. With the built-in identity provider: the development client's id and secret, which
 * `npm start` prints (the platform never hands the secret to a browser by itself: anyone who can
 * reach the page could otherwise take an owner token). With an external provider: a pasted access
 * token whose audience is this platform. The token is kept in sessionStorage.
 */
import { useState } from 'preact/hooks';
import { dashboardConfig, parseCredentialsLine, requestToken } from '../session';
import { ErrorNote } from './ErrorNote';
import { useLoad } from './use-load';

export function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const config = useLoad(dashboardConfig, []);
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const fillFrom = (text: string) => {
    const line = parseCredentialsLine(text);
    if (line) {
      setClientId(line.clientId);
      setClientSecret(line.clientSecret);
    } else setClientId(text.trim());
  };

  const signInWithClient = async (event: Event) => {
    event.preventDefault();
    if (!config.value) return;
    setBusy(true);
    setError(undefined);
    try {
      onToken(await requestToken(config.value, clientId.trim(), clientSecret.trim()));
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  const signInWithToken = (event: Event) => {
    event.preventDefault();
    const token = pasted.trim().replace(/^Bearer\s+/i, '');
    if (token.split('.').length !== 3) return setError('that is not a JWT (three dot-separated parts)');
    onToken(token);
  };

  return (
    <main class="sign-in">
      <h1>warehouse-watch</h1>
      <ErrorNote error={config.error} />
      {config.value?.identity_provider === 'embedded' ? (
        <form onSubmit={(event) => void signInWithClient(event)} aria-label="development client">
          <h2>Development client</h2>
          <p class="hint">Paste the <code>client_id=… client_secret=…</code> line that <code>npm start</code> printed, or each value.</p>
          <label>
            Client id
            <input name="client_id" autocomplete="username" value={clientId} onInput={(e) => fillFrom(e.currentTarget.value)} required />
          </label>
          <label>
            Client secret
            <input name="client_secret" type="password" autocomplete="current-password" value={clientSecret} onInput={(e) => setClientSecret(e.currentTarget.value)} required />
          </label>
          <button type="submit" class="button primary" disabled={busy}>Sign in</button>
        </form>
      ) : null}
      {config.value ? (
        <form onSubmit={signInWithToken} aria-label="access token">
          <h2>{config.value.identity_provider === 'embedded' ? 'Or an access token' : 'Access token'}</h2>
          <p class="hint">A token from your identity provider with audience <code>{config.value.audience}</code>.</p>
          <label>
            Token
            <textarea name="token" rows={3} value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} />
          </label>
          <button type="submit" class="button">Use token</button>
        </form>
      ) : null}
      <ErrorNote error={error} />
    </main>
  );
}
