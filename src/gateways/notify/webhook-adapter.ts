/**
 * Webhook: the versioned payload (webhook-payload.ts), POST or PUT, with the channel's headers and
 * a signature made afresh for every attempt (a retry carries its own timestamp, so it stays within
 * the receiver's tolerance however long the backoff was).
 */
import type { GuardedHttpClient } from '../http/guarded-client.js';
import { fromHttpOutcome } from './delivery-outcome.js';
import type { MediumAdapter, WebhookTarget } from './port.js';
import { webhookPayload, WEBHOOK_PAYLOAD_VERSION } from './webhook-payload.js';
import { SIGNATURE_HEADER, signWebhookBody } from './webhook-signature.js';

export function webhookAdapter(
  client: GuardedHttpClient,
  options: { now?: () => number } = {},
): MediumAdapter<WebhookTarget> {
  const now = options.now ?? Date.now;
  return {
    medium: 'webhook',
    async deliver(target, message, idempotencyKey) {
      const body = JSON.stringify(webhookPayload(message, idempotencyKey));
      const outcome = await client.send({
        method: target.config.method,
        url: target.config.url,
        headers: { ...target.config.headers, 'X-Webhook-Version': String(WEBHOOK_PAYLOAD_VERSION) },
        body,
        idempotencyKey,
        attemptHeaders: () => ({
          [SIGNATURE_HEADER]: signWebhookBody(target.signingSecret, Math.floor(now() / 1000), body),
        }),
      });
      return fromHttpOutcome(target, outcome);
    },
  };
}
