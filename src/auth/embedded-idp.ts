/**
 * The platform as its own identity provider (when AUTH_JWKS_URI is unset): a JWKS endpoint and an
 * OAuth client-credentials token endpoint for registered clients. Its tokens are verified through
 * the same JWKS-over-HTTP path as an external provider's.
 *
 * The token endpoint follows RFC 6749: the body is JSON (as SPEC.md shows) or
 * application/x-www-form-urlencoded (4.4.2); the client authenticates with HTTP Basic or with
 * client_id/client_secret in the body (2.3.1), never both; errors are application/json
 * `{ error, error_description }` (5.2): invalid_request and unsupported_grant_type 400,
 * invalid_client 401. The 401 carries a `WWW-Authenticate: Basic` challenge only when the client
 * tried HTTP Basic (5.2 asks for the challenge of the scheme the client used): a client that sent
 * its credentials in the body gets none, so a browser (the dashboard's sign-in, a JSON fetch) does
 * not raise its own login dialog over the page's error.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { tooManyRequests } from '../http/problem.js';
import { addressLimitKey, sourceAddress } from '../http/source-address.js';
import type { SigningKey } from './signing-key.js';
import type { TokenRequestLimits, Verdict } from './token-request-limits.js';

export interface ClientRegistration {
  client_id: string;
  client_secret: string;
  tenant_id: string;
  env_id: string;
  user_id: string;
  roles: string[];
}

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export const tokenRequestSchema = z.object({
  client_id: z.string().min(1).optional(),
  client_secret: z.string().min(1).optional(),
  audience: z.string().min(1),
});

type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

/** Whether the request tried HTTP Basic client authentication (well-formed or not). */
const triedBasic = (ctx: Context) => /^Basic\b/i.test(ctx.get('Authorization'));

/** An RFC 6749 5.2 error response; invalid_client challenges with Basic only a client that used it. */
function oauthError(ctx: Context, status: 400 | 401, error: OAuthError, description: string) {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  if (error === 'invalid_client' && triedBasic(ctx))
    ctx.set('WWW-Authenticate', `Basic realm="oauth", charset="UTF-8"`);
  ctx.body = { error, error_description: description };
  ctx.type = 'application/json';
}

/** HTTP Basic client credentials: base64 of form-urlencoded id ":" secret (RFC 6749 2.3.1). */
function basicCredentials(header: string): { client_id: string; client_secret: string } | 'absent' | 'malformed' {
  const match = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!header) return 'absent';
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : 'absent';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { client_id: formDecode(decoded.slice(0, colon)), client_secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

const clientRegistrationSchema = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(16),
  tenant_id: z.string().min(1),
  env_id: z.string().min(1),
  user_id: z.string().min(1),
  roles: z.array(z.string().min(1)).min(1),
});

/** A new development client: owner of a tenant and environment of its own. */
export function newDevClient(): ClientRegistration {
  return {
    client_id: `dev-${randomBytes(6).toString('hex')}`,
    client_secret: randomBytes(24).toString('base64url'),
    tenant_id: randomUUID(),
    env_id: randomUUID(),
    user_id: randomUUID(),
    roles: ['owner'],
  };
}

/** The client a dev-client file holds; throws naming the fields that are wrong (never their values). */
export function devClientFromJson(text: string): ClientRegistration {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const parsed = clientRegistrationSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `missing or invalid fields: ${[...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ')}`,
    );
  return parsed.data;
}

/** The development client printed at start: created once and kept in DATA_DIR. */
export function loadOrCreateDevClient(path: string): ClientRegistration {
  if (existsSync(path)) {
    // Checked as the shared file is (DEV_CLIENT_FILE): a damaged one stops start-up naming it.
    try {
      return devClientFromJson(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message} (delete it to have a new development client made)`);
    }
  }
  const client = newDevClient();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(client, null, 2), { mode: 0o600 });
  return client;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function issueToken(
  key: SigningKey,
  options: {
    issuer: string;
    audience: string;
    subject: string;
    claims: Record<string, unknown>;
    lifetimeSeconds?: number;
  },
) {
  return jwt.sign(options.claims, key.privateKey, {
    algorithm: 'RS256',
    keyid: key.kid,
    issuer: options.issuer,
    audience: options.audience,
    subject: options.subject,
    expiresIn: options.lifetimeSeconds ?? TOKEN_LIFETIME_SECONDS,
  });
}

/** Beyond a limit: a 429 problem (not an OAuth error: no OAuth error code means "slow down"). */
function refuseIfLimited(verdict: Verdict) {
  if (verdict) throw tooManyRequests(verdict.detail, verdict.retryAfterSeconds);
}

export function embeddedIdpRoutes(options: {
  key: SigningKey;
  issuer: string;
  audience: string;
  clients: () => ClientRegistration[];
  limits?: TokenRequestLimits;
}) {
  const limits = options.limits;
  const router = new Router();
  router.get('/.well-known/jwks.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=600');
    ctx.body = { keys: [options.key.publicJwk] };
  });
  router.post('/oauth/token', async (ctx) => {
    const address = addressLimitKey(sourceAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for']));
    if (limits) refuseIfLimited(await limits.request(address));
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    if (ctx.state.unreadableBody || !ctx.request.is('application/json', 'application/x-www-form-urlencoded')) {
      return oauthError(
        ctx,
        400,
        'invalid_request',
        'send the parameters as application/x-www-form-urlencoded or application/json',
      );
    }
    if (body.grant_type === undefined) return oauthError(ctx, 400, 'invalid_request', 'grant_type is required');
    if (body.grant_type !== 'client_credentials') {
      return oauthError(ctx, 400, 'unsupported_grant_type', 'only the client_credentials grant is supported');
    }
    const parsed = tokenRequestSchema.safeParse(body);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
      return oauthError(ctx, 400, 'invalid_request', `missing or invalid parameters: ${fields}`);
    }
    const basic = basicCredentials(ctx.get('Authorization'));
    if (basic === 'malformed') return oauthError(ctx, 401, 'invalid_client', 'the Basic credentials are malformed');
    const inBody = parsed.data.client_id !== undefined || parsed.data.client_secret !== undefined;
    if (basic !== 'absent' && inBody) {
      return oauthError(
        ctx,
        400,
        'invalid_request',
        'authenticate the client with HTTP Basic or with client_id/client_secret in the body, not both',
      );
    }
    const credentials = basic !== 'absent' ? basic : parsed.data;
    if (!credentials.client_id || !credentials.client_secret) {
      return oauthError(
        ctx,
        401,
        'invalid_client',
        'client authentication is required (client_id and client_secret, or HTTP Basic)',
      );
    }
    const client = options.clients().find((c) => c.client_id === credentials.client_id);
    // Unknown client ids count under one key: made-up ids of any length cannot grow the counters.
    const counted = client?.client_id ?? '(unknown client)';
    if (limits) refuseIfLimited(await limits.clientAllowed(counted, address));
    if (!client || !sameSecret(client.client_secret, credentials.client_secret)) {
      await limits?.failed(counted, address);
      return oauthError(ctx, 401, 'invalid_client', 'unknown client or wrong secret');
    }
    if (parsed.data.audience !== options.audience) {
      return oauthError(ctx, 400, 'invalid_request', `audience must be ${options.audience}`);
    }
    if (limits) refuseIfLimited(await limits.issue(client.client_id));
    const accessToken = issueToken(options.key, {
      issuer: options.issuer,
      audience: options.audience,
      subject: `client:${client.client_id}`,
      claims: { tenant_id: client.tenant_id, env_id: client.env_id, user_id: client.user_id, roles: client.roles },
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    ctx.body = { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS };
  });
  return router;
}
