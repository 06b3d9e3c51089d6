/**
 * A local stand-in for Auth0's Management API v2: client-credentials tokens, users, users-by-email
 * and password-change tickets, with the real status codes and the documented rules the adapter has
 * to live with:
 *   - a database connection stores the email lower-cased, and users-by-email matches it exactly
 *     (https://auth0.com/docs/api/management/v2/users-by-email/get-users-by-email: "the email
 *     address associated with a user is saved in lower case … make sure that you are searching for
 *     users via email addresses using the correct case"); it answers the users of every connection;
 *   - user creation applies the "Excellent" password policy (test/support/password-policy.ts);
 *   - a password-change ticket refuses `result_url` together with `client_id`, and `result_url`
 *     only redirects on the classic login page; on New Universal Login the invitee is sent to the
 *     default login route of the application named by `client_id`
 *     (https://auth0.com/docs/api/management/v2/tickets/post-password-change);
 *   - the token endpoint accepts only the Management API's own audience, which stays
 *     `https://{tenant}.auth0.com/api/v2/` when the tenant is reached through a custom domain;
 *   - an optional token-bucket rate limit answers 429 with X-RateLimit-Limit/-Remaining/-Reset (a
 *     UNIX time in seconds, https://auth0.com/docs/troubleshoot/customer-support/operational-policies/rate-limit-policy)
 *     and Retry-After, on its own clock so tests run in virtual time.
 * Tests can also make a step fail (with a status and the provider's message), hang, or revoke the
 * tokens it issued.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { excellentPolicyViolation } from './password-policy.js';

export type StandInStep = 'token' | 'create_user' | 'find_user' | 'ticket';

export interface StandInRequest {
  step: StandInStep | 'unknown';
  method: string;
  path: string;
  body: Record<string, any> | undefined;
  authorization: string | undefined;
}

export interface StandInUser {
  user_id: string;
  email: string;
  name: string;
  identities: { connection: string; provider: string; user_id: string; isSocial: boolean }[];
  app_metadata: Record<string, unknown>;
}

export interface StandInTicket {
  user_id: string;
  ticket: string;
  /** Where the invitee lands after setting the password; undefined: left on the provider's page. */
  redirectsTo: string | undefined;
}

export interface StandInOptions {
  tokenLifetimeSeconds?: number;
  /** The Management API identifier; default `<url>/api/v2/`. Set it to act as a custom domain. */
  managementAudience?: string;
  /** Default 'new' (the experience of every tenant created since Universal Login's redesign). */
  loginExperience?: 'new' | 'classic';
  /** Applications the tenant knows: client_id → its default login route (Application Login URI). */
  applications?: Record<string, string>;
  rateLimit?: { burst: number; perSecond: number; retryAfter?: boolean };
  /** The rate limit's clock (epoch ms); default Date.now. */
  now?: () => number;
}

export interface ManagementStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  requests: StandInRequest[];
  users: StandInUser[];
  tickets: StandInTicket[];
  /** The database connection's user with this (lower-cased) email. */
  databaseUser(email: string): StandInUser | undefined;
  /** A user of another connection, e.g. a social login that arrived with the same address. */
  addUser(email: string, connection: string, provider: string): StandInUser;
  failWith(step: StandInStep, status: number, message: string): void;
  hang(step: StandInStep): void;
  heal(): void;
  revokeTokens(): void;
  stop(): Promise<void>;
}

export const DATABASE_CONNECTION = 'Username-Password-Authentication';

function stepOf(method: string, path: string): StandInStep | 'unknown' {
  if (method === 'POST' && path === '/oauth/token') return 'token';
  if (method === 'POST' && path === '/api/v2/users') return 'create_user';
  if (method === 'GET' && path === '/api/v2/users-by-email') return 'find_user';
  if (method === 'POST' && path === '/api/v2/tickets/password-change') return 'ticket';
  return 'unknown';
}

/** Management API calls share one bucket per tenant, refilled continuously. */
function tokenBucket(limit: NonNullable<StandInOptions['rateLimit']>, now: () => number) {
  let tokens = limit.burst;
  let at = now();
  /** The 429's headers when the bucket is empty; undefined when the call may go through. */
  return (): Record<string, string> | undefined => {
    const current = now();
    tokens = Math.min(limit.burst, tokens + ((current - at) / 1000) * limit.perSecond);
    at = current;
    if (tokens >= 1) {
      tokens -= 1;
      return undefined;
    }
    const waitMs = ((1 - tokens) / limit.perSecond) * 1000;
    return {
      'x-ratelimit-limit': String(limit.burst),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil((current + waitMs) / 1000)),
      ...(limit.retryAfter === false ? {} : { 'retry-after': String(Math.ceil(waitMs / 1000)) }),
    };
  };
}

export async function startManagementStandIn(options: StandInOptions = {}): Promise<ManagementStandIn> {
  const clientId = `standin-${randomUUID().slice(0, 8)}`;
  const clientSecret = randomUUID();
  const tokens = new Set<string>();
  const failures = new Map<StandInStep, { status: number; message: string }>();
  const hanging = new Set<StandInStep>();
  const held: ServerResponse[] = [];
  const limited = options.rateLimit ? tokenBucket(options.rateLimit, options.now ?? Date.now) : () => undefined;
  let url = '';
  const users: StandInUser[] = [];
  const addUser = (email: string, connection: string, provider: string, extra: Partial<StandInUser> = {}) => {
    const id = randomUUID();
    const user: StandInUser = {
      user_id: `${provider}|${id}`,
      email,
      name: email,
      app_metadata: {},
      identities: [{ connection, provider, user_id: id, isSocial: provider !== 'auth0' }],
      ...extra,
    };
    users.push(user);
    return user;
  };
  const state: Omit<ManagementStandIn, 'url' | 'stop'> = {
    clientId,
    clientSecret,
    requests: [],
    users,
    tickets: [],
    databaseUser: (email) =>
      users.find((u) => u.email === email && u.identities[0]!.connection === DATABASE_CONNECTION),
    addUser: (email, connection, provider) => addUser(email, connection, provider),
    failWith: (step, status, message) => void failures.set(step, { status, message }),
    hang: (step) => void hanging.add(step),
    heal: () => {
      failures.clear();
      hanging.clear();
    },
    revokeTokens: () => tokens.clear(),
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const problem = (res: ServerResponse, status: number, error: string, message: string) =>
    send(res, status, { statusCode: status, error, message });

  function createUser(res: ServerResponse, body: Record<string, any> | undefined) {
    if (!body?.email || !body?.password || !body?.connection)
      return problem(res, 400, 'Bad Request', 'Payload validation error');
    if (body.connection !== DATABASE_CONNECTION)
      return problem(res, 400, 'Bad Request', 'The connection does not exist.');
    if (excellentPolicyViolation(String(body.password)))
      return problem(res, 400, 'Bad Request', 'PasswordStrengthError: Password is too weak');
    // A database connection keeps the address lower-cased, whatever case it was given in.
    const email = String(body.email).toLowerCase();
    if (state.databaseUser(email)) return problem(res, 409, 'Conflict', 'The user already exists.');
    const user = addUser(email, DATABASE_CONNECTION, 'auth0', {
      name: String(body.name),
      app_metadata: body.app_metadata ?? {},
    });
    return send(res, 201, user);
  }

  function passwordChangeTicket(res: ServerResponse, body: Record<string, any> | undefined) {
    if (body?.result_url !== undefined && body?.client_id !== undefined) {
      return problem(
        res,
        400,
        'Bad Request',
        'Payload validation error: result_url cannot be specified when using client_id',
      );
    }
    const owner = users.find((user) => user.user_id === body?.user_id);
    if (!owner) return problem(res, 404, 'Not Found', 'The user does not exist.');
    const redirectsTo =
      (options.loginExperience ?? 'new') === 'classic'
        ? (body?.result_url as string | undefined)
        : body?.client_id !== undefined
          ? options.applications?.[body.client_id as string]
          : undefined;
    const ticket = { user_id: owner.user_id, ticket: `${url}/lo/reset?ticket=${randomUUID()}`, redirectsTo };
    state.tickets.push(ticket);
    return send(res, 201, { ticket: ticket.ticket });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const parsedUrl = new URL(req.url ?? '/', 'http://standin');
    const step = stepOf(req.method ?? '', parsedUrl.pathname);
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : undefined;
    state.requests.push({
      step,
      method: req.method ?? '',
      path: parsedUrl.pathname + parsedUrl.search,
      body,
      authorization: req.headers.authorization,
    });
    if (step === 'unknown') return problem(res, 404, 'Not Found', 'no such endpoint');
    if (hanging.has(step)) return void held.push(res);
    const failure = failures.get(step);
    if (failure) return problem(res, failure.status, 'Error', failure.message);

    if (step === 'token') {
      if (body?.client_id !== clientId || body?.client_secret !== clientSecret)
        return send(res, 401, { error: 'access_denied', error_description: 'Unauthorized' });
      if (body?.grant_type !== 'client_credentials')
        return send(res, 403, { error: 'unauthorized_client', error_description: 'Grant type not allowed' });
      const audience = options.managementAudience ?? `${url}/api/v2/`;
      if (body?.audience !== audience)
        return send(res, 403, {
          error: 'access_denied',
          error_description: `Service not enabled within domain: ${String(body?.audience)}`,
        });
      const token = randomUUID();
      tokens.add(token);
      return send(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: options.tokenLifetimeSeconds ?? 86400,
      });
    }
    const throttled = limited();
    if (throttled)
      return send(
        res,
        429,
        {
          statusCode: 429,
          error: 'Too Many Requests',
          message: 'Global limit has been reached',
          errorCode: 'too_many_requests',
        },
        throttled,
      );
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    if (!bearer || !tokens.has(bearer)) return problem(res, 401, 'Unauthorized', 'Invalid token');

    if (step === 'create_user') return createUser(res, body);
    // Exact match, every connection's users.
    if (step === 'find_user')
      return send(
        res,
        200,
        users.filter((user) => user.email === parsedUrl.searchParams.get('email')),
      );
    return passwordChangeTicket(res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: 'stand-in failure' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...state,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
