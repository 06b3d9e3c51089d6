/**
 * Verifies the bearer token on every request before any business logic (SPEC.md, Authentication):
 * RS256 signature against the provider's JWKS (jwks-rsa, cached and rate-limited), expiry, audience
 * (= BASE_URL) and issuer; then the claims with zod. Any failure is 401.
 *
 * Decision: a token must name its key (`kid`), even when the JWKS holds a single key, so a key
 * rotation can never make a token ambiguous.
 */
import type { Middleware } from 'koa';
import koaJwt from 'koa-jwt';
import jwksRsa from 'jwks-rsa';
import { unauthorized } from '../http/problem.js';
import { principalFromClaims, tokenClaimsSchema } from './principal.js';

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
      cacheMaxAge: 10 * 60 * 1000,
      rateLimit: true,
      jwksRequestsPerMinute: 10,
      timeout: 5000,
    }));

  const verify = koaJwt({
    secret: (async (header: { kid?: string; alg?: string }) => {
      if (header.alg !== 'RS256') throw new Error('only RS256 tokens are accepted');
      if (!header.kid) throw new Error('the token names no signing key (kid)');
      const key = await keys().getSigningKey(header.kid);
      return key.getPublicKey();
    }) as unknown as string,
    algorithms: ['RS256'],
    audience: options.audience,
    issuer: options.issuer,
    key: 'claims',
  }) as unknown as Middleware;

  const readClaims: Middleware = async (ctx, next) => {
    const parsed = tokenClaimsSchema.safeParse(ctx.state.claims);
    if (!parsed.success) {
      const missing = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
      throw unauthorized(`the token's claims are invalid or missing: ${missing}`);
    }
    ctx.state.principal = principalFromClaims(parsed.data);
    await next();
  };

  return async (ctx, next) => {
    if (!ctx.get('Authorization')) throw unauthorized('a bearer token is required (Authorization: Bearer <token>)');
    await verify(ctx, async () => {
      await readClaims(ctx, next);
    });
  };
}
