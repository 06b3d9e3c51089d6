/**
 * Sms: through an SMS provider's HTTP API when SMS_PROVIDER_URL is set, otherwise a JSON file in
 * the outbox. The provider port is deliberately minimal so that a small relay can front any real
 * provider (Twilio, Vonage, SNS…):
 *
 *   POST <SMS_PROVIDER_URL>
 *   Authorization: Bearer <SMS_PROVIDER_TOKEN>
 *   Content-Type: application/json
 *   Idempotency-Key: <one per delivery>
 *   { "to": "+447700900123", "body": "…" }
 *
 * Any 2xx is accepted; 429 and 5xx are retried by the guarded client.
 */
import type { GuardedHttpClient } from '../http/guarded-client.js';
import { alertSummary } from './alert-text.js';
import { fromHttpOutcome, notAttempted } from './delivery-outcome.js';
import { outboxErrorMessage, outboxFileName, writeOutboxFile } from './outbox-file.js';
import { isE164 } from '../../contract/phone-number.js';
import type { AlertMessage, MediumAdapter, SmsTarget } from './port.js';
import { describeTarget } from './target-description.js';

export interface SmsAdapterOptions {
  /** Used when `providerUrl` is set. */
  client?: GuardedHttpClient;
  providerUrl?: string;
  /** Bearer credential for the provider. */
  providerToken?: string;
  /** DATA_DIR/outbox, used without a provider. */
  outboxDirectory: string;
  now?: () => number;
}

/**
 * Short enough for two SMS segments with the link; the link is never cut. A page with action links
 * adds them (ACK, RESOLVE) instead of the incident link, which the confirmation page shows anyway.
 */
export function smsText(message: AlertMessage): string {
  const summary = alertSummary(message);
  const cut = summary.length > 200 ? `${summary.slice(0, 199)}…` : summary;
  if (message.actions) return `${cut} ACK: ${message.actions.acknowledgeUrl} RESOLVE: ${message.actions.resolveUrl}`;
  return `${cut} ${message.incidentUrl}`;
}

export function smsAdapter(options: SmsAdapterOptions): MediumAdapter<SmsTarget> {
  const now = options.now ?? Date.now;
  if (options.providerUrl && !options.client) throw new Error('smsAdapter: a provider URL needs the guarded client');
  return {
    medium: 'sms',
    async deliver(target, message, idempotencyKey) {
      if (!isE164(target.phone))
        return notAttempted(
          target,
          'invalid_target',
          'the phone number is not in E.164 form (+ and country code, digits only)',
        );
      const sms = { to: target.phone, body: smsText(message) };
      if (options.providerUrl) {
        const outcome = await options.client!.send({
          method: 'POST',
          url: options.providerUrl,
          headers: options.providerToken ? { Authorization: `Bearer ${options.providerToken}` } : {},
          body: JSON.stringify(sms),
          idempotencyKey,
        });
        return fromHttpOutcome(target, outcome);
      }
      const startedAt = now();
      const name = outboxFileName('sms', idempotencyKey, 'json');
      try {
        await writeOutboxFile(
          options.outboxDirectory,
          name,
          `${JSON.stringify({ ...sms, idempotency_key: idempotencyKey, created_at: new Date(now()).toISOString() }, null, 2)}\n`,
        );
        return {
          ok: true,
          medium: 'sms',
          target: describeTarget(target),
          latency_ms: now() - startedAt,
          outbox_file: name,
          attempts: 1,
        };
      } catch (error) {
        return {
          ok: false,
          medium: 'sms',
          target: describeTarget(target),
          latency_ms: now() - startedAt,
          error: { kind: 'outbox', message: outboxErrorMessage(error) },
          attempts: 1,
        };
      }
    },
  };
}
