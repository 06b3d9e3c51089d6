/**
 * The heartbeat answer. Written once here: queries/heartbeats.ts and the command routes are typed
 * from it, src/openapi/heartbeats.ts documents it, the console imports its type. The ping address
 * is never in it: only its last four characters (`token_hint`). The create and rotate answers add
 * `ping_url` and `token`, once (heartbeatWithAddressSchema).
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { SEVERITIES } from './vocabulary.js';

export const HEARTBEAT_STATUSES = ['new', 'up', 'late', 'down', 'failed', 'paused'] as const;

export const heartbeatSchema = z.object({
  id: resourceId,
  tenant_id: resourceId,
  name: z.string(),
  interval_seconds: z.number().int(),
  grace_seconds: z.number().int(),
  escalation_policy_id: resourceId,
  severity: z.enum(SEVERITIES),
  enabled: z.boolean(),
  status: z.enum(HEARTBEAT_STATUSES).meta({
    description:
      'now: `new` (no ping yet, not late), `up`, `late` (past the interval, within the grace), `down` (past interval + grace: paged), `failed` (the last ping said `status=fail`: paged), `paused` (disabled)',
  }),
  has_ping_address: z.boolean().meta({ description: 'false after a revocation, until the next rotation' }),
  token_hint: z
    .string()
    .nullable()
    .meta({ description: "the ping address's last four characters, masked as `****abcd` (null: revoked)" }),
  token_issued_at: instant.nullable(),
  last_ping_at: instant.nullable(),
  last_ping_status: z.enum(['success', 'fail']).nullable(),
  last_ping_message: z.string().nullable(),
  expected_by: instant.nullable().meta({ description: 'when the next ping is due (null: paused)' }),
  pages_at: instant
    .nullable()
    .meta({ description: 'when a missing ping pages: expected_by + grace (null: paused, or already paged)' }),
  open_incident_id: resourceId.nullable(),
  created_at: instant,
  created_by: z.string(),
  updated_at: instant,
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;
export type HeartbeatStatusWord = Heartbeat['status'];

/** The create and rotate answers: the heartbeat and, this once, its new ping address in full. */
export const heartbeatWithAddressSchema = heartbeatSchema.extend({
  token: z.string().meta({ description: 'the ping token, shown only in this answer' }),
  ping_url: z
    .string()
    .meta({ description: 'the address to call: `<PUBLIC_URL>/hb/<token>` (shown only in this answer)' }),
});
export type HeartbeatWithAddress = z.infer<typeof heartbeatWithAddressSchema>;

/** What a ping answers: nothing about the heartbeat or its tenant. */
export const pingAnswerSchema = z.object({ ok: z.literal(true), status: z.enum(['success', 'fail']) });
export type PingAnswer = z.infer<typeof pingAnswerSchema>;
