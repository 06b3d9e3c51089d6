/**
 * Notification channels, the model: events of the `channel-<id>` streams, the state a command
 * sees, and how events change it. Folded by commands/channels.ts and projections/channels.ts.
 */
import { z } from 'zod';
import { channelTypeSchema, type ChannelType } from './vocabulary.js';

const channelFields = {
  channelId: z.uuid(),
  name: z.string(),
  type: channelTypeSchema,
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

export const channelStream = (id: string) => `channel-${id}`;

export interface ChannelState {
  status: 'absent' | 'active' | 'deleted';
  type?: ChannelType;
  config?: Record<string, unknown>;
}

export const initialChannelState = (): ChannelState => ({ status: 'absent' });

export function evolveChannel(state: ChannelState, event: ChannelEvent): ChannelState {
  switch (event.type) {
    case 'ChannelCreated':
    case 'ChannelUpdated':
      return { status: 'active', type: event.data.type, config: event.data.config };
    case 'ChannelDeleted':
      return { ...state, status: 'deleted' };
  }
}
