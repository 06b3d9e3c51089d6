/**
 * The production identity adapter: an OAuth/OIDC provider's management API, Auth0-style.
 *   1. a management token by client credentials (POST /oauth/token, audience <url>/api/v2/),
 *      cached until shortly before it expires and fetched again after a 401;
 *   2. the user (POST /api/v2/users); when the provider already has the address (409, e.g. a retry
 *      after a later step failed) the existing user is looked up (GET /api/v2/users-by-email);
 *   3. a password-change ticket (POST /api/v2/tickets/password-change);
 *   4. the ticket sent to the invitee by email (the provider creates tickets but does not send them).
 * Every call has a timeout; every failure is an IdentityProviderError naming the step and the
 * provider's own message.
 */
import { randomBytes } from 'node:crypto';
import { invitationEmail } from './invitation-email.js';
import { IdentityProviderError, type IdentityProvider, type InvitationMailer, type Invitee } from './port.js';

export interface ManagementApiOptions {
  managementUrl: string;
  clientId: string;
  clientSecret: string;
  mailer: InvitationMailer;
  /** Where the provider sends the invitee after the password is set (the platform). */
  resultUrl: string;
  timeoutMs?: number;
  /** The provider's database connection that holds password users. */
  connection?: string;
  now?: () => number;
}

const TICKET_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Refresh the management token this long before the provider says it expires. */
const TOKEN_MARGIN_MS = 60_000;

interface ApiAnswer {
  status: number;
  body: Record<string, unknown> | unknown[] | undefined;
}

/** The provider's explanation, from the usual fields of an error body; bounded in length. */
function providerMessage(answer: ApiAnswer): string {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  const text = [body.message, body.error_description, body.error].find((v) => typeof v === 'string') as string | undefined;
  return (text ?? 'no explanation given').slice(0, 300);
}

export function managementApiIdentityProvider(options: ManagementApiOptions): IdentityProvider {
  const base = options.managementUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  let token: { value: string; expiresAt: number } | undefined;

  async function call(step: string, method: string, path: string, body?: unknown, bearer?: string): Promise<ApiAnswer> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new IdentityProviderError(`${step}: ${timedOut ? `no answer within ${timeoutMs} ms` : 'the identity provider could not be reached'}`, step);
    }
    const text = await response.text().catch(() => '');
    let parsed: ApiAnswer['body'];
    try {
      parsed = text ? (JSON.parse(text) as ApiAnswer['body']) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed };
  }

  const failure = (step: string, answer: ApiAnswer) =>
    new IdentityProviderError(`${step}: the identity provider answered ${answer.status}: ${providerMessage(answer)}`, step, answer.status);

  async function managementToken(): Promise<string> {
    if (token && token.expiresAt > now()) return token.value;
    const answer = await call('token', 'POST', '/oauth/token', {
      grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret, audience: `${base}/api/v2/`,
    });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (answer.status !== 200 || typeof body?.access_token !== 'string') throw failure('token', answer);
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    token = { value: body.access_token, expiresAt: now() + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS) };
    return token.value;
  }

  /** A management call; a 401 means our cached token was revoked or expired early: fetch a new one once. */
  async function authorized(step: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    const answer = await call(step, method, path, body, await managementToken());
    if (answer.status !== 401) return answer;
    token = undefined;
    return call(step, method, path, body, await managementToken());
  }

  async function providerUserId(invitee: Invitee): Promise<string> {
    const created = await authorized('create_user', 'POST', '/api/v2/users', {
      email: invitee.email,
      name: invitee.name,
      connection: options.connection ?? 'Username-Password-Authentication',
      // Never stored or shown: the invitee replaces it through the ticket.
      password: `${randomBytes(24).toString('base64url')}aA1!`,
      email_verified: false,
      verify_email: false,
      app_metadata: { tenant_id: invitee.tenantId, user_id: invitee.userId },
    });
    const createdId = (created.body as { user_id?: unknown } | undefined)?.user_id;
    if (created.status === 201 || created.status === 200) {
      if (typeof createdId === 'string') return createdId;
      throw new IdentityProviderError('create_user: the identity provider answered without a user_id', 'create_user', created.status);
    }
    if (created.status !== 409) throw failure('create_user', created);
    const found = await authorized('find_user', 'GET', `/api/v2/users-by-email?email=${encodeURIComponent(invitee.email)}`);
    const existing = Array.isArray(found.body) ? (found.body[0] as { user_id?: unknown } | undefined) : undefined;
    if (found.status !== 200 || typeof existing?.user_id !== 'string') throw failure('find_user', found);
    return existing.user_id;
  }

  return {
    name: 'management-api',
    async invite(invitee) {
      const userId = await providerUserId(invitee);
      const ticket = await authorized('ticket', 'POST', '/api/v2/tickets/password-change', {
        user_id: userId, result_url: options.resultUrl, ttl_sec: TICKET_TTL_SECONDS, mark_email_as_verified: true,
      });
      const url = (ticket.body as { ticket?: unknown } | undefined)?.ticket;
      if (ticket.status !== 201 && ticket.status !== 200) throw failure('ticket', ticket);
      if (typeof url !== 'string') throw new IdentityProviderError('ticket: the identity provider answered without a ticket', 'ticket', ticket.status);
      await options.mailer.send(invitationEmail(invitee, { url, kind: 'set-password' }));
      return { reference: userId };
    },
  };
}
