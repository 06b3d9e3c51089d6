/**
 * Verifies the bearer token on every request before any business logic (SPEC.md, Authentication):
 * the JWS header (RS256, a key id, no `crit` extension), the RS256 signature against the
 * provider's JWKS (the last good key set, refreshed on an unknown key id at most every 30 s:
 * jwks-key-set.ts), expiry, audience (= BASE_URL) and issuer;
 * then the claims with zod. Any failure is 401 with a challenge naming the failed check
 * (src/auth/token-rejection.ts), logged at debug level.
 *
 * Decisions: a token must name its key (`kid`), even when the JWKS holds a single key, so a key
 * rotation can never make a token ambiguous. A header with `crit` is refused whatever it lists:
 * the platform understands no JWS extension, and RFC 7515 4.1.11 says a token marking one critical
 * must then be rejected. A JWKS that cannot be fetched at all is 503 (the provider is unavailable),
 * not 401: the token may be fine. So is a key id the last key set lacks while the refresh interval
 * has not passed (503 with Retry-After): the key may be newly published, and only a refresh can
 * say it is not.
 */
import type { Context, Middleware } from 'koa';
import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import koaJwt from 'koa-jwt';
import jwksRsa from 'jwks-rsa';
import { serviceUnavailable, unauthorized } from '../http/problem.js';
import { createJwksKeySet, type KeyLookup } from './jwks-key-set.js';
import { principalFromClaims, tokenClaimsSchema, type Principal } from '../access/principal.js';
import { bearerChallenge, TokenRejection, tokenRejectionFrom } from './token-rejection.js';

const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export interface AuthenticationOptions {
  /** Resolved lazily: the embedded provider's JWKS URL is known only once the server listens. */
  jwksUri: () => string;
  issuer: string;
  audience: string;
  /** Epoch milliseconds, for the key set's refresh interval; injectable for tests. */
  now?: () => number;
  /** A refresh of the key set failed (the last good set stays in use, so nothing else would say so). */
  onRefreshFailed?: (error: unknown) => void;
}

const unavailable = (detail: string, retryAfterMs: number, cause?: unknown) =>
  Object.assign(serviceUnavailable(detail, retryAfterMs / 1000), { cause });

/** The key, or the rejection (401) or problem (503) that a lookup without one means. */
function keyOrThrow(lookup: KeyLookup): KeyObject {
  if ('key' in lookup) return lookup.key;
  if ('unknown' in lookup)
    throw new TokenRejection('key_id', "the token's signing key (kid) is not published by the identity provider");
  if ('notCheckedYet' in lookup) {
    throw unavailable(
      "the token's signing key (kid) is not among the identity provider's keys known here, which are re-read at most every 30 s; retry then",
      lookup.retryAfterMs,
    );
  }
  throw unavailable(
    "the identity provider's signing keys (JWKS) could not be fetched",
    lookup.retryAfterMs,
    lookup.cause,
  );
}

export function authenticate(options: AuthenticationOptions): Middleware {
  // jwks-rsa only fetches and parses the set; caching and the refresh interval are the key set's.
  const fetchKeys = async () => {
    const client = jwksRsa({ jwksUri: options.jwksUri(), cache: false, rateLimit: false, timeout: 5000 });
    const published = await client.getSigningKeys();
    return new Map(published.map((key) => [key.kid, createPublicKey(key.getPublicKey())]));
  };
  const keySet = createJwksKeySet({
    fetchKeys,
    now: options.now ?? Date.now,
    onRefreshFailed: options.onRefreshFailed,
  });

  /** The header checks jsonwebtoken does not make (it ignores `crit`), before any key is fetched. */
  const checkedHeader = (token: string): { kid: string } => {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.header !== 'object')
      throw new TokenRejection('malformed', 'the token is not a well-formed signed JWT');
    const header = decoded.header as { alg?: unknown; kid?: unknown; crit?: unknown };
    if (header.crit !== undefined) {
      throw new TokenRejection(
        'critical_header',
        'the token marks header extensions critical (crit) that this service does not understand',
      );
    }
    if (header.alg !== 'RS256') throw new TokenRejection('algorithm', 'only RS256 tokens are accepted');
    if (typeof header.kid !== 'string' || header.kid === '')
      throw new TokenRejection('key_id', 'the token names no signing key (kid)');
    return { kid: header.kid };
  };

  const signingKeyFor = async (kid: string) => keyOrThrow(await keySet.keyFor(kid));

  const verify = koaJwt({
    secret: (async (header: { kid: string }) => signingKeyFor(header.kid)) as unknown as string,
    algorithms: ['RS256'],
    audience: options.audience,
    issuer: options.issuer,
    key: 'claims',
    // Failures are left in ctx.state.jwtOriginalError, so they are told apart (and errors thrown
    // further down the chain are never mistaken for token failures).
    passthrough: true,
    getToken: (ctx: Context) => ctx.state.bearerToken as string,
  }) as unknown as Middleware;

  const reject = (ctx: Context, rejection?: TokenRejection): never => {
    ctx.set('WWW-Authenticate', bearerChallenge(options.audience, rejection));
    ctx.state.log?.debug(
      { failure: rejection?.failure ?? 'missing' },
      `bearer token refused: ${rejection?.description ?? 'no token'}`,
    );
    throw unauthorized(rejection?.description ?? 'a bearer token is required (Authorization: Bearer <token>)');
  };

  const principalOf = (claims: unknown): Principal => {
    const parsed = tokenClaimsSchema.safeParse(claims);
    if (!parsed.success) {
      const missing = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
      throw new TokenRejection('claims', `the token's claims are invalid or missing: ${missing}`);
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
    // No bearer credentials at all (also another scheme, e.g. Basic): the bare challenge (RFC 6750 3.1).
    const scheme = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!scheme && !/^Bearer\b/i.test(header)) return reject(ctx);
    const token = scheme?.[1] ?? '';
    const known = verified.get(token);
    if (known && known.expiresAt > Date.now()) {
      ctx.state.principal = known.principal;
      return next();
    }
    if (known) verified.delete(token);
    let principal: Principal;
    try {
      checkedHeader(token);
      ctx.state.bearerToken = token;
      await verify(ctx, async () => undefined);
      if (ctx.state.jwtOriginalError) throw ctx.state.jwtOriginalError;
      // Frozen: the same principal object serves every later request with this token.
      principal = Object.freeze(principalOf(ctx.state.claims));
    } catch (error) {
      if ((error as { status?: number }).status === 503) throw error;
      return reject(ctx, tokenRejectionFrom(error, options));
    } finally {
      delete ctx.state.bearerToken;
      delete ctx.state.jwtOriginalError;
    }
    remember(token, ctx.state.claims as { exp: number }, principal);
    ctx.state.principal = principal;
    return next();
  };
}
