/**
 * What clients send to create or replace an integration (commands/integration-routes.ts parses
 * with it; the console's calls are typed from it): a sender outside the platform that opens,
 * acknowledges and resolves incidents (docs/integrations.md).
 */
import { z } from 'zod';
import { SEVERITIES } from '../vocabulary.js';
import { integrationConfigSchemas } from './integration-config.js';

/**
 * What speaks to an integration: PagerDuty's Events API v2 (`POST /v2/enqueue`), Alertmanager's
 * webhook, CloudWatch through SNS, or any JSON. Every kind's receiver turns its payload into the
 * one normalized alert (src/events/inbound-alert.ts).
 */
export const INTEGRATION_KINDS = ['events_v2', 'alertmanager', 'sns', 'generic'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

export const INTEGRATION_LIMITS = {
  maxNameChars: 200,
  /** How many sender severities one map may name. */
  maxSeverityMapEntries: 50,
  maxSeverityWordChars: 64,
  /** How long a rotated-away routing key keeps working (default one day, at most seven). */
  defaultGraceSeconds: 24 * 3600,
  maxGraceSeconds: 7 * 24 * 3600,
} as const;

/**
 * The Events API v2 severities onto the platform's: what a new integration maps when its body
 * names none. A sender's word that the map does not name takes `default_severity`.
 */
export const DEFAULT_SEVERITY_MAP = { critical: 'critical', error: 'high', warning: 'medium', info: 'low' } as const;

export const integrationBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(INTEGRATION_LIMITS.maxNameChars),
    kind: z.enum(INTEGRATION_KINDS).meta({
      description:
        'what sends to it: `events_v2` (PagerDuty Events API v2 at `/v2/enqueue`), `alertmanager`, `sns`, `generic`',
    }),
    escalation_policy_id: z.uuid().meta({ description: 'an escalation policy of the tenant: who its incidents page' }),
    severity_map: z
      .record(z.string().trim().min(1).max(INTEGRATION_LIMITS.maxSeverityWordChars), z.enum(SEVERITIES))
      .refine((map) => Object.keys(map).length <= INTEGRATION_LIMITS.maxSeverityMapEntries, {
        message: `at most ${INTEGRATION_LIMITS.maxSeverityMapEntries} entries`,
      })
      .default({ ...DEFAULT_SEVERITY_MAP })
      .meta({
        description:
          "the sender's severity words onto the platform's (default: critical → critical, error → high, warning → medium, info → low)",
      }),
    default_severity: z
      .enum(SEVERITIES)
      .default('high')
      .meta({ description: 'the severity of an alert whose word the map does not name' }),
    config: z.record(z.string(), z.unknown()).default({}).meta({
      description:
        "the kind's own settings: `alertmanager` `{ incident_per: fingerprint | group_key }`; `generic` `{ dedup_key, title, severity?, action?, action_map? }` (JSON Pointers into the caller's JSON; docs/integrations.md); `sns` `{ topic_arns? }`; `events_v2` none",
    }),
  })
  // The kind decides what `config` may hold: each mistake is named at its own path under /config.
  .superRefine((body, ctx) => {
    const parsed = integrationConfigSchemas[body.kind].safeParse(body.config);
    if (parsed.success) return;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: ['config', ...issue.path], message: issue.message });
  });
export type IntegrationBody = z.infer<typeof integrationBodySchema>;

export const rotateRoutingKeyBodySchema = z.strictObject({
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(INTEGRATION_LIMITS.maxGraceSeconds)
    .default(INTEGRATION_LIMITS.defaultGraceSeconds)
    .meta({
      description: 'how long the key being replaced keeps working (default 86400, at most 7 days; 0: stops now)',
    }),
});
export type RotateRoutingKeyBody = z.infer<typeof rotateRoutingKeyBodySchema>;
