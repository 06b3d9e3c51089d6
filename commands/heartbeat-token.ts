/**
 * Heartbeat ping tokens: `hb_` and 43 base64url characters (32 random bytes, 256 bits), so guessing
 * one is hopeless. Only the token's keyed hash (HMAC-SHA256 under the deployment's token key,
 * src/process/heartbeats/token-key.ts) is stored; a ping is looked up by that hash and the stored
 * hash compared in constant time. The token is shown once, in the answer that made it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_PATTERN = /^hb_[A-Za-z0-9_-]{43}$/;

export const newPingToken = (): string => `hb_${randomBytes(32).toString('base64url')}`;

/** Whether the text can be a token at all (anything else is refused before any hashing or lookup). */
export const isPingTokenShape = (text: string): boolean => TOKEN_PATTERN.test(text);

export const pingTokenHash = (key: Buffer, token: string): string =>
  createHmac('sha256', key).update(token).digest('hex');

/** The last four characters: enough to tell two addresses apart, nothing to guess with. */
export const pingTokenHint = (token: string): string => token.slice(-4);

/** Constant-time equality of two hex hashes (different lengths are simply unequal). */
export function sameTokenHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
