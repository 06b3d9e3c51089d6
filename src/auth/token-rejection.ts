/**
 * Why a bearer token was refused, and how that is told to the client (RFC 6750 section 3): a 401
 * whose `WWW-Authenticate: Bearer realm="…", error="invalid_token", error_description="…"` names
 * the check that failed. A request without a token gets the bare challenge (`Bearer realm="…"`,
 * no error code), as RFC 6750 3.1 asks for requests that carry no authentication at all.
 *
 * Descriptions are fixed texts (plus the platform's own audience or issuer): nothing of the token
 * is ever echoed, so a crafted token cannot inject into the header or the log.
 */
import jwt from 'jsonwebtoken';

export type TokenFailure =
  | 'malformed'
  | 'algorithm'
  | 'key_id'
  | 'critical_header'
  | 'signature'
  | 'expired'
  | 'not_yet_valid'
  | 'audience'
  | 'issuer'
  | 'claims';

export class TokenRejection extends Error {
  override readonly name = 'TokenRejection';
  constructor(
    readonly failure: TokenFailure,
    readonly description: string,
  ) {
    super(description);
  }
}

export const isTokenRejection = (error: unknown): error is TokenRejection => error instanceof TokenRejection;

/**
 * A jsonwebtoken verification error → the check that failed. Expiry and not-before have their own
 * error classes; the other checks are told apart only by jsonwebtoken's message, so that mapping
 * lives here, in one table.
 */
export function tokenRejectionFrom(error: unknown, expected: { audience: string; issuer: string }): TokenRejection {
  if (isTokenRejection(error)) return error;
  if (error instanceof jwt.TokenExpiredError) return new TokenRejection('expired', 'the token has expired (exp)');
  if (error instanceof jwt.NotBeforeError)
    return new TokenRejection('not_yet_valid', 'the token is not valid yet (nbf)');
  const message = error instanceof Error ? error.message : '';
  const byMessage: [RegExp, TokenFailure, string][] = [
    [/^jwt audience invalid/, 'audience', `the token's audience (aud) is not ${expected.audience}`],
    [/^jwt issuer invalid/, 'issuer', `the token's issuer (iss) is not ${expected.issuer}`],
    [/^invalid signature$/, 'signature', "the token's signature does not verify against the identity provider's keys"],
    [/^invalid algorithm$/, 'algorithm', 'only RS256 tokens are accepted'],
    [/^invalid (exp|nbf) value$/, 'claims', 'the token has an invalid exp or nbf claim'],
  ];
  const match = byMessage.find(([pattern]) => pattern.test(message));
  if (match) return new TokenRejection(match[1], match[2]);
  return new TokenRejection('malformed', 'the token is not a well-formed signed JWT');
}

/** RFC 6750 3: error_description may hold only %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash). */
const headerSafe = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');

/** The WWW-Authenticate value: the bare challenge without a rejection, the error otherwise. */
export function bearerChallenge(realm: string, rejection?: TokenRejection): string {
  const parts = [`realm="${headerSafe(realm)}"`];
  if (rejection) parts.push('error="invalid_token"', `error_description="${headerSafe(rejection.description)}"`);
  return `Bearer ${parts.join(', ')}`;
}
