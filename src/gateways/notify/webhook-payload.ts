/**
 * The webhook payload, version 1. Receivers switch on `version`; fields are only ever added within
 * a version, and a change of meaning or a removal is a new version. Pure.
 *
 *   {
 *     "version": 1,
 *     "event": "incident.triggered" | "incident.acknowledged" | "incident.resolved",
 *     "delivery_id": string,          // the idempotency key; equal on every retry of a delivery
 *     "incident": {
 *       "id": string,                 // incident id (UUID)
 *       "status": "triggered" | "acknowledged" | "resolved",
 *       "severity": "critical" | "high" | "medium" | "low",
 *       "source": "rule" | "rule_error" | "heartbeat" | "platform" | "manual" | "integration:<id>",  // added in version 1
 *       "title": string,              // the headline (a rule incident's: its rule's name); added in version 1
 *       "detail": string | null,      // why, in the source's words; added in version 1
 *       "rule_name": string | null,   // null, as are the next three, when the incident has no rule
 *       "metric": string | null,
 *       "current_value": number | null,
 *       "threshold": number | null,
 *       "condition": "gt" | "lt" | "gte" | "lte" | "eq" | null,
 *       "cluster": string | null,
 *       "url": string,                // the incident's page in the platform
 *       "occurred_at": string         // ISO 8601, when the state change happened
 *     },
 *     "actions": {                    // present on pages of a triggered incident (added in version 1)
 *       "acknowledge_url": string,    // signed, single-use links (docs/action-links.md): GET shows
 *       "resolve_url": string,        //   a confirmation page, POST does the action
 *       "expires_at": string
 *     }
 *   }
 *
 * Headers sent with it: Content-Type: application/json, Idempotency-Key (= delivery_id),
 * X-Signature (webhook-signature.ts), X-Webhook-Version: 1, and the channel's configured headers.
 */
import type { AlertMessage } from './port.js';

export const WEBHOOK_PAYLOAD_VERSION = 1;

export function webhookPayload(message: AlertMessage, deliveryId: string) {
  return {
    version: WEBHOOK_PAYLOAD_VERSION,
    event: `incident.${message.status}` as const,
    delivery_id: deliveryId,
    incident: {
      id: message.incidentId,
      status: message.status,
      severity: message.severity,
      source: message.source,
      title: message.title,
      detail: message.detail,
      rule_name: message.ruleName,
      metric: message.metric,
      current_value: message.currentValue,
      threshold: message.threshold,
      condition: message.condition ?? null,
      cluster: message.cluster,
      url: message.incidentUrl,
      occurred_at: message.occurredAt,
    },
    ...(message.actions
      ? {
          actions: {
            acknowledge_url: message.actions.acknowledgeUrl,
            resolve_url: message.actions.resolveUrl,
            expires_at: message.actions.expiresAt,
          },
        }
      : {}),
  };
}

export type WebhookPayloadV1 = ReturnType<typeof webhookPayload>;
