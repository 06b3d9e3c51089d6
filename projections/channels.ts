import type { Projection } from '../src/projection/projection.js';

/** Read model `channels`: one document per live notification channel (secrets unmasked; masking is the query's job). */
export interface ChannelDoc {
  id: string;
  tenantId: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const CHANNELS = 'channels';

export const channelsProjection: Projection = {
  name: 'channels',
  version: 1,
  handles: ['ChannelCreated', 'ChannelUpdated', 'ChannelDeleted'],
  collections: { [CHANNELS]: [{ name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] }] },
  async apply(event, writer) {
    const data = event.data as { channelId: string; name: string; type: string; config: Record<string, unknown> };
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'ChannelCreated':
        await writer.upsert(CHANNELS, {
          id: data.channelId, tenantId: event.metadata.tenantId, name: data.name, type: data.type, config: data.config,
          createdAt: at, updatedAt: at, revision: Number(event.revision),
        });
        break;
      case 'ChannelUpdated':
        await writer.patch(CHANNELS, data.channelId, { name: data.name, type: data.type, config: data.config, updatedAt: at, revision: Number(event.revision) });
        break;
      case 'ChannelDeleted':
        await writer.delete(CHANNELS, data.channelId);
        break;
    }
  },
};
