/**
 * Notification channels: the config schemas (config validated per type, SPEC.md Notification
 * channel; unknown fields rejected; the body around it is src/contract/bodies/channels.ts) and the
 * decider. The model is src/events/channel.ts; the routes are commands/channel-routes.ts.
 */
import { z } from 'zod';
import { PAGER_SEVERITIES, type PagerSeverity } from '../src/gateways/notify/port.js';
import { DEFAULT_SEVERITY_MAPPING } from '../src/gateways/notify/pager-event.js';
import { SUBJECT_PLACEHOLDERS, unknownPlaceholders } from '../src/gateways/notify/subject-template.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectInvalid, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { evolveChannel, initialChannelState, type ChannelEvent, type ChannelState } from '../src/events/channel.js';
import { keepMaskedSecrets, secretPointer } from '../src/events/channel-secrets.js';
import { channelBodySchema } from '../src/contract/bodies/channels.js';
import { SEVERITIES, type ChannelType, type Severity } from '../src/events/vocabulary.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

/**
 * A pager channel's map of the platform's severities onto the Events API v2 ones. Partial: a
 * severity left out is sent with DEFAULT_SEVERITY_MAPPING's value (src/gateways/notify/pager-event.ts).
 */
const severityMappingSchema = z
  .strictObject(
    Object.fromEntries(
      SEVERITIES.map((s) => [
        s,
        z
          .enum(PAGER_SEVERITIES, { error: `must be an Events API v2 severity: ${PAGER_SEVERITIES.join(', ')}` })
          .optional(),
      ]),
    ) as Record<Severity, z.ZodOptional<z.ZodEnum<{ [K in PagerSeverity]: K }>>>,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `not a severity of the platform: ${issue.keys.join(', ')}; its severities: ${SEVERITIES.join(', ')}`
          : undefined,
    },
  )
  .meta({
    description: `severities left out take the default mapping: ${Object.entries(DEFAULT_SEVERITY_MAPPING)
      .map(([from, to]) => `${from} → ${to}`)
      .join(', ')}`,
  });

/**
 * A pager integration key is the 32 characters PagerDuty shows on the Events API v2 integration;
 * the Events API refuses any other length with 400 "Length of 'routing_key' is incorrect (should be
 * 32 characters)" ("Send an Event", https://v2.developer.pagerduty.com/docs/send-an-event-events-api-v2).
 * An update may send back the masked form (`****` + the last four) to keep the stored key.
 */
const pagerIntegrationKey = z
  .string()
  .trim()
  .regex(
    /^(?:[A-Za-z0-9]{32}|\*{4}[A-Za-z0-9]{4})$/,
    'must be the 32-character integration key of a PagerDuty Events API v2 integration (letters and digits)',
  );

export const channelConfigSchemas = {
  chat: z.strictObject({
    webhook_url: httpUrl,
    // Required (SPEC.md), but a label only: an incoming webhook posts to its own channel (chat-message.ts).
    channel_name: z.string().trim().min(1).meta({
      description:
        'a label for people: a Slack incoming webhook posts to the channel it was created for and ignores any other',
    }),
  }),
  email: z.strictObject({
    recipients: z.array(z.email()).min(1, 'at least one recipient is required').max(100),
    subject_template: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .superRefine((template, ctx) => {
        const unknown = unknownPlaceholders(template);
        if (unknown.length > 0)
          ctx.addIssue({
            code: 'custom',
            message: `unknown placeholders ${unknown.map((p) => `{{${p}}}`).join(', ')}; known: ${SUBJECT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ')}`,
          });
      }),
  }),
  pager: z.strictObject({
    integration_key: pagerIntegrationKey,
    severity_mapping: severityMappingSchema,
  }),
  webhook: z.strictObject({
    url: httpUrl,
    headers: z
      .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string().max(4096))
      .default({}),
    method: z.enum(['POST', 'PUT']),
  }),
} satisfies Record<ChannelType, z.ZodType>;

/** `config` checked for its type: the parsed config, or the issues with paths under `config`. */
function parseConfig(
  type: ChannelType,
  config: Record<string, unknown>,
): { config: Record<string, unknown> } | { issues: z.core.$ZodIssue[] } {
  const parsed = channelConfigSchemas[type].safeParse(config);
  if (parsed.success) return { config: parsed.data as Record<string, unknown> };
  return { issues: parsed.error.issues.map((issue) => ({ ...issue, path: ['config', ...issue.path] })) };
}

/** Validates `config` for its type; issues carry paths under /config. */
export function parseChannelBody(body: unknown) {
  const base = channelBodySchema.parse(body);
  const parsed = parseConfig(base.type, base.config);
  if ('issues' in parsed) throw new z.ZodError(parsed.issues);
  return { ...base, config: parsed.config };
}

export type ChannelCommand =
  /** `signingSecret`: for webhook channels, generated by the route. */
  | {
      kind: 'CreateChannel';
      channelId: string;
      name: string;
      type: ChannelType;
      config: Record<string, unknown>;
      signingSecret?: string;
    }
  /** The fields given replace the channel's, the others are kept; `config` is checked here, for the type the channel will have. */
  | {
      kind: 'UpdateChannel';
      channelId: string;
      name?: string;
      type?: ChannelType;
      config?: Record<string, unknown>;
      signingSecret?: string;
    }
  | { kind: 'DeleteChannel'; channelId: string }
  /** `signingSecret`: generated by the route (the decider stays pure). */
  | { kind: 'RotateSigningSecret'; channelId: string; signingSecret: string }
  | {
      kind: 'RecordChannelTest';
      channelId: string;
      result: Omit<Extract<ChannelEvent, { type: 'ChannelTestSent' }>['data'], 'channelId'>;
    };

/** A webhook channel gets a signing secret when it first becomes a webhook; it keeps it across updates. */
function signingSecretFor(
  command: { channelId: string; type: ChannelType; signingSecret?: string },
  state: ChannelState,
): ChannelEvent[] {
  if (command.type !== 'webhook' || state.signingSecret || !command.signingSecret) return [];
  return [
    { type: 'ChannelSigningSecretSet', data: { channelId: command.channelId, signingSecret: command.signingSecret } },
  ];
}

/**
 * The config after an update: the one sent, whole (never merged per key, so a header or recipient
 * left out is gone), valid for the channel's type, with secrets sent back masked kept; or, when
 * none is sent, the stored one, which fits only the type it was stored for.
 */
function updatedConfig(
  sent: Record<string, unknown> | undefined,
  type: ChannelType,
  state: ChannelState,
): Record<string, unknown> {
  if (sent === undefined) {
    if (type !== state.type)
      throw rejectInvalid(`a channel that becomes ${type} needs a ${type} config`, [
        { path: '/config', message: `required with a new type (${type})` },
      ]);
    return state.config!;
  }
  const parsed = parseConfig(type, sent);
  if ('issues' in parsed) {
    throw rejectInvalid(
      `config is not valid for a ${type} channel`,
      parsed.issues.map((issue) => ({ path: `/${issue.path.map(String).join('/')}`, message: issue.message })),
    );
  }
  const kept = keepMaskedSecrets({ type, config: parsed.config }, { type: state.type!, config: state.config! });
  if ('mustBeGivenAgain' in kept) {
    throw rejectInvalid(
      'a masked secret keeps the stored one only while the destination (type, url, webhook_url) is unchanged; give it again in clear',
      kept.mustBeGivenAgain.map((path) => ({
        path: secretPointer(path),
        message: 'masked: give the secret again for the new destination',
      })),
    );
  }
  return kept.config;
}

export const channelDecider: Decider<ChannelState, ChannelCommand, ChannelEvent> = {
  initialState: initialChannelState,
  evolve: evolveChannel,
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateChannel':
        if (state.status !== 'absent') throw rejectConflict('a notification channel with this id already exists');
        return [
          {
            type: 'ChannelCreated',
            data: { channelId: command.channelId, name: command.name, type: command.type, config: command.config },
          },
          ...signingSecretFor(command, state),
        ];
      case 'UpdateChannel': {
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        const type = command.type ?? state.type!;
        const config = updatedConfig(command.config, type, state);
        return [
          {
            type: 'ChannelUpdated',
            data: { channelId: command.channelId, name: command.name ?? state.name!, type, config },
          },
          ...signingSecretFor({ ...command, type }, state),
        ];
      }
      case 'DeleteChannel':
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        return [{ type: 'ChannelDeleted', data: { channelId: command.channelId } }];
      case 'RotateSigningSecret':
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        if (state.type !== 'webhook') throw rejectConflict('only webhook channels sign their requests');
        return [
          {
            type: 'ChannelSigningSecretSet',
            data: { channelId: command.channelId, signingSecret: command.signingSecret },
          },
        ];
      case 'RecordChannelTest':
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        return [{ type: 'ChannelTestSent', data: { channelId: command.channelId, ...command.result } }];
    }
  },
};
