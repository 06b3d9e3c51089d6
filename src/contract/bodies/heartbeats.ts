/**
 * What clients send to create or replace a heartbeat (commands/heartbeat-routes.ts parses with it;
 * the console's calls are typed from it), and the bounds of a heartbeat's timing.
 */
import { z } from 'zod';
import { SEVERITIES } from '../vocabulary.js';

/** Bounds of a heartbeat's timing, in seconds. */
export const HEARTBEAT_LIMITS = {
  minIntervalSeconds: 60,
  maxIntervalSeconds: 31 * 24 * 3600,
  maxGraceSeconds: 7 * 24 * 3600,
  /** A ping's message is cut to this many characters. */
  maxMessageChars: 500,
} as const;

/** Default grace: five minutes past the expected interval before a missed ping pages. */
export const DEFAULT_GRACE_SECONDS = 300;

export const heartbeatBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  interval_seconds: z
    .number()
    .int()
    .min(HEARTBEAT_LIMITS.minIntervalSeconds)
    .max(HEARTBEAT_LIMITS.maxIntervalSeconds)
    .meta({ description: 'how often a ping is expected: 60 s to 31 days' }),
  grace_seconds: z.number().int().min(0).max(HEARTBEAT_LIMITS.maxGraceSeconds).default(DEFAULT_GRACE_SECONDS).meta({
    description: 'how long past the interval a ping may be late before it pages (default 300, at most 7 days)',
  }),
  escalation_policy_id: z.uuid().meta({ description: 'an escalation policy of the tenant: who is paged' }),
  severity: z.enum(SEVERITIES).default('high'),
  enabled: z.boolean().default(true),
});
export type HeartbeatBody = z.infer<typeof heartbeatBodySchema>;
