/**
 * Notification channels: the command schemas (config validated per type, SPEC.md Notification
 * channel; unknown fields rejected) and the decider. The model is src/events/channel.ts; the
 * routes are commands/channel-routes.ts.
 */
import { z } from 'zod';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectInvalid, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { evolveChannel, initialChannelState, type ChannelEvent, type ChannelState } from '../src/events/channel.js';
import { keepMaskedSecrets, secretPointer } from '../src/events/channel-secrets.js';
import { SEVERITIES, channelTypeSchema, type ChannelType } from '../src/events/vocabulary.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });
/** What the pager Events API v2 accepts as a severity. */
export const PAGER_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

export const channelConfigSchemas = {
  chat: z.strictObject({ webhook_url: httpUrl, channel_name: z.string().trim().min(1) }),
  email: z.strictObject({
    recipients: z.array(z.email()).min(1, 'at least one recipient is required').max(100),
    subject_template: z.string().trim().min(1).max(500),
  }),
  pager: z.strictObject({
    integration_key: z.string().trim().min(1).max(200),
    severity_mapping: z.strictObject(
      Object.fromEntries(SEVERITIES.map((s) => [s, z.enum(PAGER_SEVERITIES)])) as Record<(typeof SEVERITIES)[number], z.ZodEnum<{ [K in (typeof PAGER_SEVERITIES)[number]]: K }>>,
    ),
  }),
  webhook: z.strictObject({
    url: httpUrl,
    headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string().max(4096)).default({}),
    method: z.enum(['POST', 'PUT']),
  }),
} satisfies Record<ChannelType, z.ZodType>;

export const channelBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  type: channelTypeSchema,
  config: z.record(z.string(), z.unknown()),
});

/** Validates `config` for its type; issues carry paths under /config. */
export function parseChannelBody(body: unknown) {
  const base = channelBodySchema.parse(body);
  const config = channelConfigSchemas[base.type].safeParse(base.config);
  if (!config.success) {
    throw new z.ZodError(config.error.issues.map((issue) => ({ ...issue, path: ['config', ...issue.path] })));
  }
  return { ...base, config: config.data as Record<string, unknown> };
}

export type ChannelCommand =
  | { kind: 'CreateChannel'; channelId: string; name: string; type: ChannelType; config: Record<string, unknown> }
  | { kind: 'UpdateChannel'; channelId: string; name: string; type: ChannelType; config: Record<string, unknown> }
  | { kind: 'DeleteChannel'; channelId: string };

export const channelDecider: Decider<ChannelState, ChannelCommand, ChannelEvent> = {
  initialState: initialChannelState,
  evolve: evolveChannel,
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateChannel':
        if (state.status !== 'absent') throw rejectConflict('a notification channel with this id already exists');
        return [{ type: 'ChannelCreated', data: { channelId: command.channelId, name: command.name, type: command.type, config: command.config } }];
      case 'UpdateChannel': {
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        const stored = state.type && state.config ? { type: state.type, config: state.config } : undefined;
        const kept = keepMaskedSecrets({ type: command.type, config: command.config }, stored);
        if ('mustBeGivenAgain' in kept) {
          throw rejectInvalid(
            'a masked secret keeps the stored one only while the destination (type, url, webhook_url) is unchanged; give it again in clear',
            kept.mustBeGivenAgain.map((path) => ({ path: secretPointer(path), message: 'masked: give the secret again for the new destination' })),
          );
        }
        const { config } = kept;
        return [{ type: 'ChannelUpdated', data: { channelId: command.channelId, name: command.name, type: command.type, config } }];
      }
      case 'DeleteChannel':
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        return [{ type: 'ChannelDeleted', data: { channelId: command.channelId } }];
    }
  },
};
