import { mapChannelSecrets } from '../src/events/channel-secrets.js';
import type { ChannelType } from '../src/events/vocabulary.js';
import type { Projection } from '../src/projection-runner/projection.js';
import type { SecretBox } from '../src/secrets/secret-box.js';

/**
 * Read model `channels`: one document per live notification channel. Its secrets are sealed like
 * in the event log (a copied read-models.db reveals nothing); queries/channels.ts opens them, and
 * masking is the query's job.
 */
export interface ChannelDoc {
  id: string;
  tenantId: string;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  /** Webhook channels only (sealed here; queries/channels.ts opens it). */
  signingSecret?: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const CHANNELS = 'channels';

export const channelsProjection = (secrets: Pick<SecretBox, 'seal'>): Projection => ({
  name: 'channels',
  // 2: secrets sealed (a read model of version 1 holds them plain and is rebuilt); 3: webhook signing secrets.
  version: 3,
  handles: ['ChannelCreated', 'ChannelUpdated', 'ChannelDeleted', 'ChannelSigningSecretSet'],
  collections: { [CHANNELS]: [{ name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] }] },
  async apply(event, writer) {
    const data = event.data as { channelId: string; name: string; type: ChannelType; config: Record<string, unknown> };
    const config = data.config && mapChannelSecrets(data.type, data.config, (secret) => secrets.seal(secret));
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'ChannelCreated':
        await writer.upsert(CHANNELS, {
          id: data.channelId,
          tenantId: event.metadata.tenantId,
          name: data.name,
          type: data.type,
          config,
          createdAt: at,
          updatedAt: at,
          revision: Number(event.revision),
        });
        break;
      case 'ChannelUpdated':
        await writer.patch(CHANNELS, data.channelId, {
          name: data.name,
          type: data.type,
          config,
          updatedAt: at,
          revision: Number(event.revision),
        });
        break;
      case 'ChannelDeleted':
        await writer.delete(CHANNELS, data.channelId);
        break;
      case 'ChannelSigningSecretSet':
        await writer.patch(CHANNELS, data.channelId, {
          signingSecret: secrets.seal(String(event.data.signingSecret)),
          revision: Number(event.revision),
        });
        break;
    }
  },
});
