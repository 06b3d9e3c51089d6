/**
 * Webhook signatures: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the HMAC is keyed
 * with the channel's signing secret (the whole `whsec_…` string, as UTF-8) and computed over
 * `<t>.<raw request body>`. The timestamp inside the signed text is what makes a captured request
 * useless later: receivers refuse timestamps outside their tolerance (5 minutes is usual) and may
 * remember the signatures seen within it. Several v1 values may appear during a secret rotation;
 * one matching is enough. Pure apart from `generateSigningSecret`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';

/** A new signing secret for a webhook channel (256 random bits). */
export const generateSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

const hmacHex = (secret: string, timestampSeconds: number, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');

/** The X-Signature header value for a body sent at `timestampSeconds` (unix seconds). */
export function signWebhookBody(secret: string, timestampSeconds: number, body: string | Buffer): string {
  return `t=${Math.floor(timestampSeconds)},v1=${hmacHex(secret, Math.floor(timestampSeconds), body)}`;
}

export type SignatureCheck =
  | { valid: true; timestamp: number }
  | { valid: false; reason: 'malformed' | 'stale' | 'mismatch' };

/** Checks an X-Signature header against the raw body, at `nowSeconds`, allowing `toleranceSeconds` of clock difference. */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureCheck {
  if (!header) return { valid: false, reason: 'malformed' };
  const pairs = header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]);
  const timestamps = pairs.filter(([key]) => key === 't').map(([, value]) => value ?? '');
  const signatures = pairs
    .filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''))
    .map(([, value]) => value!);
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || signatures.length === 0)
    return { valid: false, reason: 'malformed' };
  const timestamp = Number(timestamps[0]);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'stale' };
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}
