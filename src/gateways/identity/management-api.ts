/**
 * The production identity adapter: Auth0's Management API v2 (or one shaped like it).
 *   1. a management token by client credentials (POST /oauth/token with the Management API's
 *      audience), cached until shortly before it expires and fetched again after a 401;
 *   2. the user in the configured database connection (POST /api/v2/users); when the provider
 *      already has the address (409, e.g. a retry after a later step failed) the existing user is
 *      looked up (GET /api/v2/users-by-email);
 *   3. a password-change ticket (POST /api/v2/tickets/password-change);
 *   4. the ticket sent to the invitee by email (the provider creates tickets but does not send them).
 * Every call has a timeout and waits out rate limits within a budget (management-http.ts); every
 * failure is an IdentityProviderError naming the step and the provider's own message.
 */
import { invitationEmail } from './invitation-email.js';
import { managementHttp, type ApiAnswer, type WaitBudget } from './management-http.js';
import { IdentityProviderError, type IdentityProvider, type InvitationMailer, type Invitee } from './port.js';
import { provisionalPassword, type RandomInt } from './provisional-password.js';

export interface ManagementApiOptions {
  managementUrl: string;
  clientId: string;
  clientSecret: string;
  mailer: InvitationMailer;
  /** Where the provider sends the invitee after the password is set (the platform); classic login page only. */
  resultUrl: string;
  /**
   * The Management API's identifier, the token's audience. Default `<managementUrl>/api/v2/`;
   * with a custom domain it stays `https://{tenant}.auth0.com/api/v2/`.
   */
  audience?: string;
  /**
   * The application the invitee signs in to. Sent as the ticket's `client_id` (instead of
   * `result_url`, which the provider refuses alongside it): on New Universal Login the invitee is
   * then sent to that application's login route.
   */
  applicationClientId?: string;
  /** The provider's database connection that holds password users. */
  connection?: string;
  timeoutMs?: number;
  /** Longest total wait on 429s per invitation. Default 5000. */
  rateLimitBudgetMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The provisional password's random source. */
  random?: RandomInt;
}

const TICKET_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Refresh the management token this long before the provider says it expires. */
const TOKEN_MARGIN_MS = 60_000;
export const DEFAULT_CONNECTION = 'Username-Password-Authentication';

/** The provider's explanation, from the usual fields of an error body; bounded in length. */
function providerMessage(answer: ApiAnswer): string {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  const text = [body.message, body.error_description, body.error].find((v) => typeof v === 'string') as
    | string
    | undefined;
  const waited =
    answer.status === 429 && answer.retryAfterMs !== undefined
      ? ` (rate limited; asked to wait ${Math.ceil(answer.retryAfterMs / 1000)} s)`
      : '';
  return `${(text ?? 'no explanation given').slice(0, 300)}${waited}`;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ProviderUser {
  user_id?: unknown;
  identities?: { connection?: unknown }[];
}

export function managementApiIdentityProvider(options: ManagementApiOptions): IdentityProvider {
  const base = options.managementUrl.replace(/\/$/, '');
  const audience = options.audience ?? `${base}/api/v2/`;
  const connection = options.connection ?? DEFAULT_CONNECTION;
  const now = options.now ?? Date.now;
  const http = managementHttp({
    baseUrl: base,
    timeoutMs: options.timeoutMs ?? 10_000,
    rateLimitBudgetMs: options.rateLimitBudgetMs ?? 5000,
    now,
    sleep: options.sleep ?? realSleep,
  });
  let token: { value: string; expiresAt: number } | undefined;

  const failure = (step: string, answer: ApiAnswer) =>
    new IdentityProviderError(
      `${step}: the identity provider answered ${answer.status}: ${providerMessage(answer)}`,
      step,
      answer.status,
    );

  async function managementToken(budget: WaitBudget): Promise<string> {
    if (token && token.expiresAt > now()) return token.value;
    const answer = await http.call(budget, 'token', 'POST', '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      audience,
    });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (answer.status !== 200 || typeof body?.access_token !== 'string') throw failure('token', answer);
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    token = { value: body.access_token, expiresAt: now() + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS) };
    return token.value;
  }

  /** A management call; a 401 means our cached token was revoked or expired early: fetch a new one once. */
  async function authorized(
    budget: WaitBudget,
    step: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiAnswer> {
    const answer = await http.call(budget, step, method, path, body, await managementToken(budget));
    if (answer.status !== 401) return answer;
    token = undefined;
    return http.call(budget, step, method, path, body, await managementToken(budget));
  }

  /**
   * The existing user of our connection. Auth0 keeps a database user's address lower-cased and
   * users-by-email matches it exactly, and answers the users of every connection (a social login
   * with the same address included): https://auth0.com/docs/api/management/v2/users-by-email/get-users-by-email
   */
  async function existingUserId(budget: WaitBudget, email: string): Promise<string> {
    const found = await authorized(
      budget,
      'find_user',
      'GET',
      `/api/v2/users-by-email?email=${encodeURIComponent(email.toLowerCase())}`,
    );
    if (found.status !== 200) throw failure('find_user', found);
    const users = (Array.isArray(found.body) ? found.body : []) as ProviderUser[];
    const ours = users.find((user) => user.identities?.some((identity) => identity.connection === connection));
    if (typeof ours?.user_id === 'string') return ours.user_id;
    throw new IdentityProviderError(
      `find_user: the identity provider has the address but no user of it in the connection ${connection}`,
      'find_user',
      found.status,
    );
  }

  async function providerUserId(budget: WaitBudget, invitee: Invitee): Promise<string> {
    const created = await authorized(budget, 'create_user', 'POST', '/api/v2/users', {
      email: invitee.email,
      name: invitee.name,
      connection,
      // Never stored or shown: the invitee replaces it through the ticket.
      password: provisionalPassword(options.random),
      email_verified: false,
      verify_email: false,
      app_metadata: { tenant_id: invitee.tenantId, user_id: invitee.userId },
    });
    const createdId = (created.body as { user_id?: unknown } | undefined)?.user_id;
    if (created.status === 201 || created.status === 200) {
      if (typeof createdId === 'string') return createdId;
      throw new IdentityProviderError(
        'create_user: the identity provider answered without a user_id',
        'create_user',
        created.status,
      );
    }
    if (created.status !== 409) throw failure('create_user', created);
    return existingUserId(budget, invitee.email);
  }

  /**
   * `result_url` "cannot be specified when using client_id" and only redirects "in the classic
   * Universal Login experience"; with `client_id`, New Universal Login offers the application's
   * default login route: https://auth0.com/docs/api/management/v2/tickets/post-password-change
   */
  const destination =
    options.applicationClientId !== undefined
      ? { client_id: options.applicationClientId }
      : { result_url: options.resultUrl };

  return {
    name: 'management-api',
    async invite(invitee) {
      const budget = http.newBudget();
      const userId = await providerUserId(budget, invitee);
      const ticket = await authorized(budget, 'ticket', 'POST', '/api/v2/tickets/password-change', {
        user_id: userId,
        ...destination,
        ttl_sec: TICKET_TTL_SECONDS,
        mark_email_as_verified: true,
      });
      const url = (ticket.body as { ticket?: unknown } | undefined)?.ticket;
      if (ticket.status !== 201 && ticket.status !== 200) throw failure('ticket', ticket);
      if (typeof url !== 'string')
        throw new IdentityProviderError(
          'ticket: the identity provider answered without a ticket',
          'ticket',
          ticket.status,
        );
      await options.mailer.send(invitationEmail(invitee, { url, kind: 'set-password' }));
      return { reference: userId };
    },
  };
}
