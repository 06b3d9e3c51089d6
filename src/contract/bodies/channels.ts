/**
 * What clients send to the notification-channel routes (commands/channel-routes.ts parses with
 * these; the console's calls are typed from them). `config` is checked per type by the decider
 * (commands/channels.ts, channelConfigSchemas), which needs the notify gateways' words.
 */
import { z } from 'zod';
import { CHANNEL_TYPES } from '../vocabulary.js';
import { nonEmptyBody } from './non-empty-body.js';

export const channelBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  type: z.enum(CHANNEL_TYPES),
  config: z.record(z.string(), z.unknown()),
});

/**
 * PUT (SPEC.md: "Updates the configuration"): any non-empty subset of name, type, config. A `config`
 * sent replaces the stored one whole and is checked by the decider for the channel's (new) type.
 */
export const channelChangeBodySchema = nonEmptyBody(channelBodySchema.partial());
