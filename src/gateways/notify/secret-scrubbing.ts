/**
 * Receivers echo what they were sent (a debugging endpoint, an error page quoting the request).
 * Whatever a delivery records (the response excerpt, the error message) goes into events readable
 * with `audit:read` and into logs, so every configured secret of the target, and anything shaped
 * like a credential, is replaced before it is recorded. Pure.
 */
import { mapChannelSecrets } from '../../events/channel-secrets.js';
import type { DeliveryOutcome, NotifyTarget } from './port.js';

const SCRUBBED = '****';
/** Shorter values would scrub ordinary words ("dba", "on"); secrets that short are no secrets. */
const MIN_SECRET_LENGTH = 6;

/** A credential after an HTTP auth scheme: `Bearer eyJ…`, `Basic dXNlcjpw…`, `Token abc…`. */
const AUTH_SCHEME_VALUE = /\b(Bearer|Basic|Token|Digest|ApiKey|Api-Key)(\s+)[A-Za-z0-9\-._~+/=:%]{6,}/gi;
/** JSON Web Tokens anywhere (three base64url parts, the first a JSON header). */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** The value of an Authorization / API key header or field, as a header line or a JSON member. */
const CREDENTIAL_FIELD =
  /((?:proxy-)?authorization|x-api-key|api[-_]?key|x-auth-token|access[-_]token|secret)("?\s*[:=]\s*"?)(?!Bearer\b|Basic\b|Token\b)([^\s",;}]{6,})/gi;

/** Every secret of a target in clear, plus the spellings a receiver may echo it in. */
export function targetSecrets(target: NotifyTarget): string[] {
  const found: string[] = [];
  if (target.medium === 'chat' || target.medium === 'pager' || target.medium === 'webhook') {
    mapChannelSecrets(
      target.medium,
      target.config as unknown as Record<string, unknown>,
      (secret) => (found.push(secret), secret),
    );
  }
  if (target.medium === 'webhook') found.push(target.signingSecret);
  const parts = found.flatMap((secret) => {
    const url = URL.canParse(secret) ? new URL(secret) : undefined;
    // A secret URL's path is the credential (chat incoming webhooks); the scheme word of a header is not.
    const pieces = [
      secret,
      url ? `${url.pathname}${url.search}` : '',
      url?.pathname ?? '',
      secret.replace(/^\S+\s+/, ''),
    ];
    return pieces.flatMap((piece) => [piece, encodeURIComponent(piece), JSON.stringify(piece).slice(1, -1)]);
  });
  // Longest first, so a secret containing another one is replaced whole.
  return [...new Set(parts.filter((p) => p.length >= MIN_SECRET_LENGTH && p !== '/'))].sort(
    (a, b) => b.length - a.length,
  );
}

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const withoutConfigured = secrets.reduce((result, secret) => result.split(secret).join(SCRUBBED), text);
  return withoutConfigured
    .replace(AUTH_SCHEME_VALUE, `$1$2${SCRUBBED}`)
    .replace(JWT, SCRUBBED)
    .replace(CREDENTIAL_FIELD, (_match, name: string, separator: string) => `${name}${separator}${SCRUBBED}`);
}

/** The outcome with its excerpt and error message scrubbed of the target's secrets. */
export function scrubOutcome(outcome: DeliveryOutcome, target: NotifyTarget): DeliveryOutcome {
  if (outcome.response_excerpt === undefined && outcome.error === undefined) return outcome;
  const secrets = targetSecrets(target);
  return {
    ...outcome,
    ...(outcome.response_excerpt !== undefined
      ? { response_excerpt: scrubSecrets(outcome.response_excerpt, secrets) }
      : {}),
    ...(outcome.error ? { error: { ...outcome.error, message: scrubSecrets(outcome.error.message, secrets) } } : {}),
  };
}
