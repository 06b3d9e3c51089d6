/**
 * The notification-channel answers: the channel (secrets masked), a rotated signing secret, a test's
 * outcome. Written once here: queries/channels.ts and commands/channel-routes.ts are typed from
 * them, src/openapi/channels.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { CHANNEL_TYPES } from './vocabulary.js';

export const channelSchema = z.object({
  id: resourceId,
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  config: z
    .record(z.string(), z.unknown())
    .meta({ description: 'as sent, with secrets masked (`****` + the last four characters)' }),
  created_at: instant,
  updated_at: instant,
  signing_secret: z
    .string()
    .optional()
    .meta({ description: 'webhook channels, on create (and when a change issued one): shown once' }),
});
export type NotificationChannel = z.infer<typeof channelSchema>;

/** POST /notification-channels/{id}/test: the downstream outcome, bare. */
export const channelTestResultSchema = z.object({
  success: z.boolean(),
  target: z.string().nullable(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().nullable(),
  response_excerpt: z.string().nullable(),
  error: z
    .object({
      kind: z.string().meta({
        description:
          'refused_address, dns, timeout, tls, network, http (a 4xx/5xx answer), smtp, outbox, invalid_target or internal',
      }),
      message: z.string().meta({ description: 'why, without secrets' }),
    })
    .nullable(),
});
export type ChannelTestAnswer = z.infer<typeof channelTestResultSchema>;

/** POST /notification-channels/{id}/rotate-secret: the new secret, shown once. */
export const rotatedSecretSchema = z.object({ id: resourceId, signing_secret: z.string() });
export type RotatedSecret = z.infer<typeof rotatedSecretSchema>;
