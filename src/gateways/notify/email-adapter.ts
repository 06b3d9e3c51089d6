/**
 * Email: over SMTP (nodemailer) when SMTP_URL is set, otherwise an .eml file in the outbox.
 * SMTP_URL is the operator's mail relay, not a user-supplied address, so it does not go through the
 * address guard. Transient SMTP failures (4xx replies, lost connections, timeouts) are retried with
 * the same policy as HTTP deliveries; 5xx replies are final. Messages give the relay's scheme and
 * host and the reply code, never the URL's credentials.
 */
import nodemailer from 'nodemailer';
import { destinationOf } from '../http/outbound-outcome.js';
import { DEFAULT_RETRY_POLICY, delayBeforeRetry, type RetryPolicy } from '../http/retry-policy.js';
import { alertEmail, type AlertEmail } from './email-message.js';
import { outboxErrorMessage, outboxFileName, writeOutboxFile } from './outbox-file.js';
import { describeTarget, maskEmail } from './target-description.js';
import type { DeliveryErrorKind, DeliveryOutcome, EmailTarget, MediumAdapter } from './port.js';

export interface EmailAdapterOptions {
  /** The From address, e.g. `warehouse-watch <alerts@example.com>`. */
  from: string;
  /** SMTP_URL, e.g. smtps://user:password@mail.example.com:465; unset: write to the outbox. */
  smtpUrl?: string;
  /** DATA_DIR/outbox. */
  outboxDirectory: string;
  /** Per SMTP attempt: connection, greeting and each socket wait. Default 5000. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
}

const SMTP_ERROR_KINDS: Record<string, DeliveryErrorKind> = {
  ETIMEDOUT: 'timeout',
  EDNS: 'dns',
  ETLS: 'tls',
  ECONNECTION: 'network',
  ESOCKET: 'network',
};

/** Masks addresses in the server's reply, which usually repeats the recipient. */
const maskAddresses = (text: string) => text.replace(/[^\s<>"']+@[^\s<>"']+/g, maskEmail).slice(0, 1000);

export function emailAdapter(options: EmailAdapterOptions): MediumAdapter<EmailTarget> {
  const now = options.now ?? Date.now;
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = options.timeoutMs ?? 5000;
  const relay = options.smtpUrl ? destinationOf(new URL(options.smtpUrl)) : undefined;
  const smtp = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : undefined;
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  async function viaSmtp(
    email: AlertEmail,
    base: Omit<DeliveryOutcome, 'ok' | 'latency_ms'>,
    startedAt: number,
  ): Promise<DeliveryOutcome> {
    for (let attempts = 1; ; attempts += 1) {
      try {
        const info = await smtp!.sendMail(email);
        const reply = String(info.response ?? '');
        const refused = (info.rejected ?? []) as Array<string | { address: string }>;
        const rejected = refused.map((address) => maskEmail(typeof address === 'string' ? address : address.address));
        return {
          ...base,
          ok: true,
          status_code: Number(/^\d{3}/.exec(reply)?.[0] ?? 250),
          latency_ms: now() - startedAt,
          response_excerpt: maskAddresses(rejected.length ? `${reply} (refused: ${rejected.join(', ')})` : reply),
          attempts,
        };
      } catch (caught) {
        const error = caught as SmtpError;
        const transient = error.responseCode
          ? error.responseCode < 500
          : ['ETIMEDOUT', 'ECONNECTION', 'ESOCKET', 'EDNS'].includes(error.code ?? '');
        const delay = delayBeforeRetry({ type: 'failure', retryable: transient }, attempts, {
          policy,
          random: options.random ?? Math.random,
          nowMs: now(),
        });
        if (delay !== undefined) {
          await sleep(delay);
          continue;
        }
        const what = error.responseCode
          ? `the mail server answered ${error.responseCode}`
          : `the mail server could not be used (${error.code ?? 'unknown error'})`;
        return {
          ...base,
          ok: false,
          ...(error.responseCode ? { status_code: error.responseCode } : {}),
          latency_ms: now() - startedAt,
          error: {
            kind: error.responseCode ? 'smtp' : (SMTP_ERROR_KINDS[error.code ?? ''] ?? 'smtp'),
            message: `${relay}: ${what}`,
          },
          attempts,
        };
      }
    }
  }

  async function toOutbox(
    email: AlertEmail,
    idempotencyKey: string,
    base: Omit<DeliveryOutcome, 'ok' | 'latency_ms'>,
    startedAt: number,
  ): Promise<DeliveryOutcome> {
    try {
      const info = await composer.sendMail({ ...email, date: new Date(now()) });
      const name = outboxFileName('email', idempotencyKey, 'eml');
      await writeOutboxFile(options.outboxDirectory, name, (info as unknown as { message: Buffer }).message);
      return { ...base, ok: true, latency_ms: now() - startedAt, outbox_file: name, attempts: 1 };
    } catch (error) {
      return {
        ...base,
        ok: false,
        latency_ms: now() - startedAt,
        error: { kind: 'outbox', message: outboxErrorMessage(error) },
        attempts: 1,
      };
    }
  }

  return {
    medium: 'email',
    async deliver(target, message, idempotencyKey) {
      const startedAt = now();
      const base = { medium: 'email' as const, target: describeTarget(target) };
      if (target.config.recipients.length === 0) {
        return {
          ...base,
          ok: false,
          latency_ms: 0,
          error: { kind: 'invalid_target', message: 'no recipients' },
          attempts: 0,
        };
      }
      const email = alertEmail(message, {
        from: options.from,
        recipients: target.config.recipients,
        subjectTemplate: target.config.subject_template,
        idempotencyKey,
      });
      return smtp ? viaSmtp(email, base, startedAt) : toOutbox(email, idempotencyKey, base, startedAt);
    },
  };
}
