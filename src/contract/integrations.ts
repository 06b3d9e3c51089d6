/**
 * The integration answer. Written once here: queries/integrations.ts and the command routes are
 * typed from it, src/openapi/integrations.ts documents it. The routing key is never in it, only
 * its masked last four characters; the create and rotate answers add it once
 * (integrationWithKeySchema).
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { INTEGRATION_KINDS } from './bodies/integrations.js';
import { SEVERITIES } from './vocabulary.js';

export const integrationSchema = z.object({
  id: resourceId,
  tenant_id: resourceId,
  name: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  escalation_policy_id: resourceId,
  severity_map: z.record(z.string(), z.enum(SEVERITIES)),
  default_severity: z.enum(SEVERITIES),
  config: z.record(z.string(), z.unknown()).meta({
    description:
      "the kind's own settings (`alertmanager`: `incident_per`; `generic`: the JSON Pointers and `action_map`; `sns`: `topic_arns`)",
  }),
  has_routing_key: z.boolean().meta({ description: 'false after a revocation, until the next rotation' }),
  routing_key_hint: z
    .string()
    .nullable()
    .meta({ description: "the routing key's last four characters, masked as `****abcd` (null: revoked)" }),
  routing_key_issued_at: instant.nullable(),
  previous_key_valid_until: instant
    .nullable()
    .meta({ description: 'until when the key replaced by the last rotation still works (null: none does)' }),
  last_event_at: instant.nullable().meta({ description: 'when the last accepted event arrived (null: none yet)' }),
  events_received: z.number().int().meta({ description: 'how many events it has accepted' }),
  created_at: instant,
  created_by: z.string(),
  updated_at: instant,
});
export type Integration = z.infer<typeof integrationSchema>;

/** The create and rotate answers: the integration and, this once, its routing key in full. */
export const integrationWithKeySchema = integrationSchema.extend({
  routing_key: z.string().meta({ description: 'the routing key (32 characters), shown only in this answer' }),
  events_url: z.string().meta({
    description:
      'where its sender posts: `events_v2` `<PUBLIC_URL>/v2/enqueue` (the key goes in the body); the others `<PUBLIC_URL>/integrations/<kind>/<routing_key>` (the key is in the address)',
  }),
});
export type IntegrationWithKey = z.infer<typeof integrationWithKeySchema>;

/** A change event (`POST /v2/change/enqueue`): on the tenant's record, paging nobody. */
export const changeEventSchema = z.object({
  id: resourceId,
  integration_id: resourceId,
  summary: z.string(),
  source: z.string().nullable(),
  timestamp: instant.nullable().meta({ description: "the sender's own time of the change, when it gave one" }),
  received_at: instant,
  custom_details: z.unknown().nullable(),
  links: z.array(z.object({ href: z.string(), text: z.string().nullable() })),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;
