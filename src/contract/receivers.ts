/**
 * The answers of the receivers keyed in their address (`POST /integrations/<kind>/<routing key>`:
 * Alertmanager's webhook, SNS, generic JSON). Refusals are problem+json. Written once here:
 * commands/receiver-routes.ts is typed from it, src/openapi/integrations.ts documents it.
 */
import { z } from 'zod';

/** What a sender's alert asks (src/events/inbound-alert.ts re-exports these for the model). */
export const INBOUND_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
/** What an accepted alert did. */
export const ALERT_OUTCOMES = ['opened', 'repeated', 'acknowledged', 'resolved', 'ignored'] as const;

export const receiverAcceptedSchema = z.object({
  status: z.literal('accepted'),
  alerts: z
    .array(
      z.object({
        dedup_key: z.string(),
        action: z.enum(INBOUND_ACTIONS),
        outcome: z.enum(ALERT_OUTCOMES).meta({
          description:
            'what it did: opened an incident, repeated on an open one (no page), acknowledged or resolved it, or nothing (ignored: none open)',
        }),
        incident_id: z.string().nullable(),
      }),
    )
    .meta({ description: 'one per alert the payload carried, in its order (an SNS INSUFFICIENT_DATA carries none)' }),
});
export type ReceiverAccepted = z.infer<typeof receiverAcceptedSchema>;

export const snsSubscriptionAnswerSchema = z.object({
  status: z.enum(['subscription confirmed', 'unsubscribe noted']),
  topic_arn: z.string(),
});
export type SnsSubscriptionAnswer = z.infer<typeof snsSubscriptionAnswerSchema>;
