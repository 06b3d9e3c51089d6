/**
 * The outbound half of the SNS receiver, through the platform's one guarded HTTP client (so
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS, the time bound and the body bound apply as to notifications):
 *   - the signing certificate, fetched only from an address the trusted pattern allows (production:
 *     `https://sns.<region>.amazonaws.com/…pem`) and kept (at most 50 addresses; SNS rotates its
 *     certificate rarely), so a burst of notifications fetches it once;
 *   - the subscription's confirmation: a GET of its SubscribeURL, only on a trusted address.
 */
import { randomUUID } from 'node:crypto';
import type { GuardedHttpClient } from '../http/guarded-client.js';
import { trustedSnsUrl, validSnsSignature, type SnsMessage } from './sns-signature.js';

const MAX_CACHED = 50;

export interface SnsGateway {
  /** 'untrusted': the certificate's address is not an SNS one (nothing fetched); 'invalid': the signature is not its. */
  verify(message: SnsMessage): Promise<'valid' | 'untrusted' | 'invalid' | 'unavailable'>;
  /** Visits the SubscribeURL (a trusted address only). */
  confirm(subscribeUrl: string): Promise<'confirmed' | 'untrusted' | 'failed'>;
}

export function snsGateway(deps: { client: GuardedHttpClient; trustedUrl: RegExp; now: () => Date }): SnsGateway {
  const certificates = new Map<string, string>();
  const get = (url: string) => deps.client.send({ method: 'GET', url, idempotencyKey: randomUUID() });

  async function certificate(url: string): Promise<string | undefined> {
    const cached = certificates.get(url);
    if (cached !== undefined) return cached;
    const answer = await get(url);
    if (!answer.ok || !answer.response_excerpt?.includes('-----BEGIN CERTIFICATE-----')) return undefined;
    if (certificates.size >= MAX_CACHED) certificates.delete(certificates.keys().next().value!);
    certificates.set(url, answer.response_excerpt);
    return answer.response_excerpt;
  }

  return {
    async verify(message) {
      const url = message.SigningCertURL;
      if (!trustedSnsUrl(url, deps.trustedUrl) || !new URL(url).pathname.endsWith('.pem')) return 'untrusted';
      const pem = await certificate(url);
      if (pem === undefined) return 'unavailable';
      return validSnsSignature(message, pem, deps.now()) ? 'valid' : 'invalid';
    },
    async confirm(subscribeUrl) {
      if (!trustedSnsUrl(subscribeUrl, deps.trustedUrl)) return 'untrusted';
      return (await get(subscribeUrl)).ok ? 'confirmed' : 'failed';
    },
  };
}
