/**
 * Verifies the bearer token on every request before any business logic (SPEC.md, Authentication):
 * RS256 signature against the provider's JWKS (jwks-rsa, cached and rate-limited), expiry, audience
 * (= BASE_URL) and issuer; then the claims with zod. Any failure is 401.
 *
 * Decision: a token must name its key (`kid`), even when the JWKS holds a single key, so a key
 * rotation can never make a token ambiguous.
 */
import type { Middleware } from 'koa';
import { createPublicKey, type KeyObject } from 'node:crypto';
import koaJwt from 'koa-jwt';
import jwksRsa from 'jwks-rsa';
import { unauthorized } from '../http/problem.js';
import { principalFromClaims, tokenClaimsSchema, type Principal } from './principal.js';

const KEY_CACHE_MS = 10 * 60 * 1000;
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export interface AuthenticationOptions {
  /** Resolved lazily: the embedded provider's JWKS URL is known only once the server listens. */
  jwksUri: () => string;
  issuer: string;
  audience: string;
}

export function authenticate(options: AuthenticationOptions): Middleware {
  let client: jwksRsa.JwksClient | undefined;
  const keys = () =>
    (client ??= jwksRsa({
      jwksUri: options.jwksUri(),
      cache: true,
      cacheMaxAge: KEY_CACHE_MS,
      rateLimit: true,
      jwksRequestsPerMinute: 10,
      timeout: 5000,
    }));

  // Parsing a PEM into a KeyObject costs more than verifying the signature, so parsed keys are
  // kept for as long as jwks-rsa would cache the JWKS entry.
  const parsedKeys = new Map<string, { key: KeyObject; until: number }>();
  const publicKeyFor = async (kid: string) => {
    const cached = parsedKeys.get(kid);
    if (cached && cached.until > Date.now()) return cached.key;
    const key = createPublicKey((await keys().getSigningKey(kid)).getPublicKey());
    if (parsedKeys.size > 20) parsedKeys.clear();
    parsedKeys.set(kid, { key, until: Date.now() + KEY_CACHE_MS });
    return key;
  };

  const verify = koaJwt({
    secret: (async (header: { kid?: string; alg?: string }) => {
      if (header.alg !== 'RS256') throw new Error('only RS256 tokens are accepted');
      if (!header.kid) throw new Error('the token names no signing key (kid)');
      return publicKeyFor(header.kid);
    }) as unknown as string,
    algorithms: ['RS256'],
    audience: options.audience,
    issuer: options.issuer,
    key: 'claims',
  }) as unknown as Middleware;

  const principalOf = (claims: unknown): Principal => {
    const parsed = tokenClaimsSchema.safeParse(claims);
    if (!parsed.success) {
      const missing = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
      throw unauthorized(`the token's claims are invalid or missing: ${missing}`);
    }
    return principalFromClaims(parsed.data);
  };

  // A token whose signature and claims were checked once is remembered until it expires, so a
  // busy client does not pay an RSA verification per request. Keyed by the whole token text.
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();
  const remember = (token: string, claims: { exp: number }, principal: Principal) => {
    if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) verified.clear();
    verified.set(token, { principal, expiresAt: claims.exp * 1000 });
  };

  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) throw unauthorized('a bearer token is required (Authorization: Bearer <token>)');
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const known = verified.get(token);
    if (known && known.expiresAt > Date.now()) {
      ctx.state.principal = known.principal;
      return next();
    }
    if (known) verified.delete(token);
    await verify(ctx, async () => {
      // Frozen: the same principal object serves every later request with this token.
      const principal = Object.freeze(principalOf(ctx.state.claims));
      remember(token, ctx.state.claims as { exp: number }, principal);
      ctx.state.principal = principal;
      await next();
    });
  };
}
