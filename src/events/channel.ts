import { z } from 'zod';

/** Events of the `channel-<id>` streams (notification channels). */
const channelFields = {
  channelId: z.uuid(),
  name: z.string(),
  type: z.enum(['chat', 'email', 'pager', 'webhook']),
  config: z.record(z.string(), z.unknown()),
};

export const channelEvents = {
  ChannelCreated: z.object(channelFields),
  ChannelUpdated: z.object(channelFields),
  ChannelDeleted: z.object({ channelId: z.uuid() }),
};

export type ChannelEvent =
  | { type: 'ChannelCreated'; data: z.infer<typeof channelEvents.ChannelCreated> }
  | { type: 'ChannelUpdated'; data: z.infer<typeof channelEvents.ChannelUpdated> }
  | { type: 'ChannelDeleted'; data: z.infer<typeof channelEvents.ChannelDeleted> };
