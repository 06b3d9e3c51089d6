/**
 * Sign-in. With the built-in identity provider: the development client's id and secret, which
 * `npm start` prints (the platform never hands the secret to a browser by itself: anyone who can
 * reach the page could otherwise take an owner token). With an external provider: a pasted access
 * token whose audience is this platform. The token is kept in sessionStorage.
 *
 * The credentials line is split into the two fields when it arrives whole (pasted, dropped,
 * autofilled), when the client id field is left, and on submit; never while it is being typed
 * character by character, which would move the caret and send the rest of the line into the
 * wrong field. After the API refused a token, the page says why the session ended.
 */
import { useState } from 'preact/hooks';
import { dashboardConfig, parseCredentialsLine, requestToken, sessionEndedBecause } from '../session';
import { ErrorNote } from './ErrorNote';
import { useLoad } from './use-load';

export function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const config = useLoad(dashboardConfig, []);
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const [ended] = useState(sessionEndedBecause);

  /** Fills both fields from a whole credentials line; false (nothing changed) for anything else. */
  const splitLine = (text: string) => {
    const line = parseCredentialsLine(text);
    if (!line) return false;
    setClientId(line.clientId);
    setClientSecret(line.clientSecret);
    return true;
  };

  const onClientIdInput = (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    if (!(arrivedWhole(event as InputEvent) && splitLine(value))) setClientId(value);
  };

  const signInWithClient = async (event: Event) => {
    event.preventDefault();
    if (!config.value) return;
    const line = parseCredentialsLine(clientId);
    if (line) splitLine(clientId);
    const id = line?.clientId ?? clientId.trim();
    const secret = line?.clientSecret ?? clientSecret.trim();
    if (!id || !secret) return setError('enter the client id and the client secret');
    setBusy(true);
    setError(undefined);
    try {
      onToken(await requestToken(config.value, id, secret));
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
      {ended ? (
        <p class="error" role="alert" data-testid="session-ended">
          <strong>
            {/expired/i.test(ended) ? 'Your session expired; sign in again.' : 'Your session ended; sign in again.'}
          </strong>{' '}
          The API refused the token: {ended.replace(/\.$/, '')}.
        </p>
      ) : null}
      <ErrorNote error={config.error} />
      {config.value?.identity_provider === 'embedded' ? (
        // noValidate: Enter in the client id field submits a whole line there; the fields are
        // checked (and the line split) in signInWithClient.
        <form onSubmit={(event) => void signInWithClient(event)} aria-label="development client" noValidate>
          <h2>Development client</h2>
          <p class="hint">
            Paste the <code>client_id=… client_secret=…</code> line that <code>npm start</code> printed, or each value.
          </p>
          <label>
            Client id
            <input
              name="client_id"
              autocomplete="username"
              value={clientId}
              onInput={onClientIdInput}
              onChange={(e) => splitLine(e.currentTarget.value)}
              required
            />
          </label>
          <label>
            Client secret
            <input
              name="client_secret"
              type="password"
              autocomplete="current-password"
              value={clientSecret}
              onInput={(e) => setClientSecret(e.currentTarget.value)}
              required
            />
          </label>
          <button type="submit" class="button primary" disabled={busy}>
            Sign in
          </button>
        </form>
      ) : null}
      {config.value ? (
        <form onSubmit={signInWithToken} aria-label="access token">
          <h2>{config.value.identity_provider === 'embedded' ? 'Or an access token' : 'Access token'}</h2>
          <p class="hint">
            A token from your identity provider with audience <code>{config.value.audience}</code>.
          </p>
          <label>
            Token
            <textarea name="token" rows={3} value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} />
          </label>
          <button type="submit" class="button">
            Use token
          </button>
        </form>
      ) : null}
      <ErrorNote error={error} />
    </main>
  );
}

/**
 * Whether an input event brought its text in one piece (paste, drop, autocomplete, a programmatic
 * insert) rather than one typed character: only then is a whole credentials line split at once.
 */
function arrivedWhole(event: InputEvent): boolean {
  const type = event.inputType ?? '';
  return type.startsWith('insertFrom') || type === 'insertReplacementText' || (event.data?.length ?? 0) > 1;
}
