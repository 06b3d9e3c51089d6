/**
 * Each kind's own settings of an integration (the body's `config`), checked on create and replace
 * so a receiver never meets a configuration it cannot follow (400 naming the field):
 *   - `alertmanager`: `incident_per` — one incident per alert `fingerprint` (default) or per
 *     Alertmanager `group_key` (the whole group opens and resolves as one);
 *   - `generic`: where in the caller's JSON the dedup key, title, severity and action are (JSON
 *     Pointers, RFC 6901) and which of the caller's action words mean trigger, acknowledge, resolve;
 *   - `sns`: optionally the topic ARNs whose messages are taken;
 *   - `events_v2`: none (`{}`).
 */
import { z } from 'zod';

/** RFC 6901: empty (the whole document) or `/`-separated tokens where `~` is only `~0` or `~1`. */
export const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

const pointer = (what: string) =>
  z
    .string()
    .max(512)
    .regex(JSON_POINTER, { message: 'must be a JSON Pointer (RFC 6901), e.g. /alert/id' })
    .meta({ description: `JSON Pointer (RFC 6901) to ${what} in the caller's JSON` });

export const ALERTMANAGER_INCIDENT_PER = ['fingerprint', 'group_key'] as const;

export const alertmanagerConfigSchema = z.strictObject({
  incident_per: z.enum(ALERTMANAGER_INCIDENT_PER).default('fingerprint').meta({
    description:
      "`fingerprint`: one incident per alert (Alertmanager's `fingerprint`); `group_key`: one per notification group (`groupKey`)",
  }),
});

const ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;

export const genericConfigSchema = z.strictObject({
  dedup_key: pointer('the dedup key (a string or number; one open incident per key)'),
  title: pointer("the incident's title (a string)"),
  severity: pointer("the sender's severity word, mapped through `severity_map`").optional(),
  action: pointer('the action word (absent: every event triggers)').optional(),
  action_map: z
    .record(z.string().min(1).max(64), z.enum(ACTIONS))
    .refine((map) => Object.keys(map).length <= 50, { message: 'at most 50 entries' })
    .default({ trigger: 'trigger', acknowledge: 'acknowledge', resolve: 'resolve' })
    .meta({ description: "the caller's action words onto trigger, acknowledge, resolve" }),
});

const noConfigSchema = z.strictObject({});

/** An SNS topic's ARN (any partition: aws, aws-cn, aws-us-gov). */
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

export const snsConfigSchema = z.strictObject({
  topic_arns: z
    .array(
      z
        .string()
        .regex(TOPIC_ARN, { message: 'must be an SNS topic ARN, e.g. arn:aws:sns:eu-west-1:123456789012:alarms' }),
    )
    .max(20)
    .optional()
    .meta({
      description:
        'the topics whose messages are taken (AWS advises refusing unexpected topics); absent or empty: any topic that holds the address',
    }),
});

export const integrationConfigSchemas = {
  events_v2: noConfigSchema,
  alertmanager: alertmanagerConfigSchema,
  sns: snsConfigSchema,
  generic: genericConfigSchema,
} as const;

export type AlertmanagerConfig = z.infer<typeof alertmanagerConfigSchema>;
export type GenericConfig = z.infer<typeof genericConfigSchema>;
export type SnsConfig = z.infer<typeof snsConfigSchema>;
