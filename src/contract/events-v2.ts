/**
 * The answers of `POST /v2/enqueue` and `POST /v2/change/enqueue`, exactly as PagerDuty's Events
 * API v2 gives them (its OpenAPI document, PagerDuty/api-schema reference/events-v2/openapiv3.json):
 * these are not problem+json, since the senders (Alertmanager, Grafana, Airflow's provider) read
 * PagerDuty's shapes.
 */
import { z } from 'zod';

export const eventsV2AcceptedSchema = z.object({
  status: z.literal('success'),
  message: z.string().meta({ description: '`Event processed` (a change event: `Change event processed`)' }),
  dedup_key: z
    .string()
    .optional()
    .meta({ description: "the alert's dedup key: the sender's, or the one made for a trigger that had none" }),
});
export type EventsV2Accepted = z.infer<typeof eventsV2AcceptedSchema>;

export const eventsV2RefusedSchema = z.object({
  status: z
    .string()
    .meta({ description: '`invalid event`, `Unrecognized object` (not JSON), or `throttle event` (429)' }),
  message: z.string(),
  errors: z.array(z.string()),
});
export type EventsV2Refused = z.infer<typeof eventsV2RefusedSchema>;
