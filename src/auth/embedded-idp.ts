/**
 * The platform as its own identity provider (when AUTH_JWKS_URI is unset): a JWKS endpoint and an
 * OAuth client-credentials token endpoint for registered clients. Its tokens are verified through
 * the same JWKS-over-HTTP path as an external provider's.
 */
import Router from '@koa/router';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { HttpProblem } from '../http/problem.js';
import type { SigningKey } from './signing-key.js';

export interface ClientRegistration {
  client_id: string;
  client_secret: string;
  tenant_id: string;
  env_id: string;
  user_id: string;
  roles: string[];
}

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

const tokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  audience: z.string().min(1),
});

/** The development client printed at start: created once and kept in DATA_DIR. */
export function loadOrCreateDevClient(path: string): ClientRegistration {
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as ClientRegistration;
  const client: ClientRegistration = {
    client_id: `dev-${randomBytes(6).toString('hex')}`,
    client_secret: randomBytes(24).toString('base64url'),
    tenant_id: randomUUID(),
    env_id: randomUUID(),
    user_id: randomUUID(),
    roles: ['owner'],
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(client, null, 2), { mode: 0o600 });
  return client;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function issueToken(key: SigningKey, options: { issuer: string; audience: string; subject: string; claims: Record<string, unknown>; lifetimeSeconds?: number }) {
  return jwt.sign(options.claims, key.privateKey, {
    algorithm: 'RS256',
    keyid: key.kid,
    issuer: options.issuer,
    audience: options.audience,
    subject: options.subject,
    expiresIn: options.lifetimeSeconds ?? TOKEN_LIFETIME_SECONDS,
  });
}

export function embeddedIdpRoutes(options: { key: SigningKey; issuer: string; audience: string; clients: () => ClientRegistration[] }) {
  const router = new Router();
  router.get('/.well-known/jwks.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=600');
    ctx.body = { keys: [options.key.publicJwk] };
  });
  router.post('/oauth/token', (ctx) => {
    const parsed = tokenRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) {
      throw new HttpProblem(400, 'Bad Request', 'expected { grant_type: "client_credentials", client_id, client_secret, audience }', undefined, { error: 'invalid_request' });
    }
    const request = parsed.data;
    const client = options.clients().find((c) => c.client_id === request.client_id);
    if (!client || !sameSecret(client.client_secret, request.client_secret)) {
      throw new HttpProblem(401, 'Unauthorized', 'unknown client or wrong secret', undefined, { error: 'invalid_client' });
    }
    if (request.audience !== options.audience) {
      throw new HttpProblem(400, 'Bad Request', `audience must be ${options.audience}`, undefined, { error: 'invalid_request' });
    }
    const accessToken = issueToken(options.key, {
      issuer: options.issuer,
      audience: options.audience,
      subject: `client:${client.client_id}`,
      claims: { tenant_id: client.tenant_id, env_id: client.env_id, user_id: client.user_id, roles: client.roles },
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS };
  });
  return router;
}
