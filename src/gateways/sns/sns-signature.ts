/**
 * Amazon SNS message signatures (AWS's "Verifying the signatures of Amazon SNS messages"): the
 * string to sign is `Name\nvalue\n` for each signed field in byte order of the names —
 *   Notification: Message, MessageId, Subject (only when present), Timestamp, TopicArn, Type;
 *   SubscriptionConfirmation and UnsubscribeConfirmation: Message, MessageId, SubscribeURL,
 *     Timestamp, Token, TopicArn, Type —
 * signed with RSA over SHA1 (`SignatureVersion` 1) or SHA256 (2), the signature Base64 in
 * `Signature`, the certificate at `SigningCertURL`. Pure: the certificate is fetched by
 * sns-certificates.ts, only from an address `trustedSnsUrl` allows.
 */
import { verify, X509Certificate } from 'node:crypto';

export const SNS_MESSAGE_TYPES = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'] as const;
export type SnsMessageType = (typeof SNS_MESSAGE_TYPES)[number];

export interface SnsMessage {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: '1' | '2';
  Signature: string;
  SigningCertURL: string;
  Subject?: string | null;
  SubscribeURL?: string;
  Token?: string;
  UnsubscribeURL?: string;
}

/**
 * Whether the URL is one SNS_TRUSTED_URL_PATTERN allows (production: HTTPS on
 * `sns.<region>.amazonaws.com` only, src/config.ts), judged on the URL as written and as parsed.
 */ export function trustedSnsUrl(url: string, pattern: RegExp): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // Judged on the URL as parsed (no user info, no odd spellings of the host).
  if (parsed.username !== '' || parsed.password !== '') return false;
  return pattern.test(`${parsed.protocol}//${parsed.host}${parsed.pathname}`) && pattern.test(url);
}

export function snsStringToSign(message: SnsMessage): string {
  const fields =
    message.Type === 'Notification'
      ? ([
          'Message',
          'MessageId',
          ...(typeof message.Subject === 'string' ? ['Subject'] : []),
          'Timestamp',
          'TopicArn',
          'Type',
        ] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const);
  return fields.map((name) => `${name}\n${message[name as keyof SnsMessage] ?? ''}\n`).join('');
}

/** Whether the signature is the certificate's over the message (the certificate valid at `at`). */
export function validSnsSignature(message: SnsMessage, certificatePem: string, at: Date): boolean {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return false;
  }
  if (at < new Date(certificate.validFrom) || at > new Date(certificate.validTo)) return false;
  const algorithm = message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
  try {
    return verify(
      algorithm,
      Buffer.from(snsStringToSign(message), 'utf8'),
      certificate.publicKey,
      Buffer.from(message.Signature, 'base64'),
    );
  } catch {
    return false;
  }
}
