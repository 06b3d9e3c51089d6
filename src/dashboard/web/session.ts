/**
 * The signed-in session: the access token lives in sessionStorage (this tab only, gone when it
 * closes; never in localStorage or a cookie), and how a token is obtained.
 */

const TOKEN_KEY = 'warehouse-watch.token';
/** Why the API last refused this tab's token (its problem detail), for the sign-in page to say. */
const ENDED_KEY = 'warehouse-watch.session-ended';

export interface DashboardConfig {
  audience: string;
  identity_provider: 'embedded' | 'external';
}

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const storeToken = (token: string) => {
  sessionStorage.removeItem(ENDED_KEY);
  sessionStorage.setItem(TOKEN_KEY, token);
};
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

/**
 * The API refused the token (401): remember its reason before the session ends, so the sign-in
 * page that follows says why instead of just reappearing. Kept until the next sign-in.
 */
export const noteSessionEnded = (detail: string) => sessionStorage.setItem(ENDED_KEY, detail);
export const sessionEndedBecause = (): string | null => sessionStorage.getItem(ENDED_KEY);

export async function dashboardConfig(): Promise<DashboardConfig> {
  const response = await fetch('/dashboard/config.json');
  if (!response.ok) throw new Error(`the dashboard configuration could not be read (HTTP ${response.status})`);
  return (await response.json()) as DashboardConfig;
}

/**
 * `npm start` prints `client_id=… client_secret=…`: that whole line in the client id field fills
 * both. Null until both values are there (a line typed halfway is not split).
 */
export function parseCredentialsLine(text: string): { clientId: string; clientSecret: string } | null {
  const id = /client_id=(\S+)/.exec(text);
  const secret = /client_secret=(\S+)/.exec(text);
  return id && secret ? { clientId: id[1]!, clientSecret: secret[1]! } : null;
}

/** The built-in identity provider's client-credentials grant (POST /oauth/token). */
export async function requestToken(config: DashboardConfig, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch('/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      audience: config.audience,
    }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`${body.error ?? 'error'}: ${body.error_description ?? `HTTP ${response.status}`}`);
  return body.access_token;
}
