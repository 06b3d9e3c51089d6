/** Notification channels, read side: list and get, secrets masked. */
import type { NotificationChannel } from '../src/contract/channels.js';
import { CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { mapChannelSecrets, maskChannelConfig } from '../src/events/channel-secrets.js';
import { CHANNEL_TYPES } from '../src/events/vocabulary.js';
import { badRequest } from '../src/http/problem.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';
import { isSealed, type SecretBox } from '../src/secrets/secret-box.js';

type SecretOpener = Pick<SecretBox, 'open'>;

/** The document with its secrets opened (the read model keeps them sealed; older plain ones pass). */
export const openChannelDoc = (doc: ChannelDoc, secrets: SecretOpener): ChannelDoc => ({
  ...doc,
  config: mapChannelSecrets(doc.type, doc.config, (value) => (isSealed(value) ? secrets.open(value) : value)),
  ...(typeof doc.signingSecret === 'string'
    ? { signingSecret: isSealed(doc.signingSecret) ? secrets.open(doc.signingSecret) : doc.signingSecret }
    : {}),
});

/** The channel as clients see it (from an opened document): secrets masked. */
export const channelView = (
  doc: Pick<ChannelDoc, 'id' | 'name' | 'type' | 'config' | 'createdAt' | 'updatedAt'>,
): NotificationChannel => ({
  id: doc.id,
  name: doc.name,
  type: doc.type,
  config: maskChannelConfig(doc.type, doc.config),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

/** The tenant's channel with its secrets opened, or null. */
export async function findChannel(reader: ReadModelReader, secrets: SecretOpener, tenantId: string, id: string) {
  const doc = await findTenantDoc<ChannelDoc>(reader, CHANNELS, tenantId, id);
  return doc && openChannelDoc(doc, secrets);
}

export function channelQueryRoutes(deps: { reader: ReadModelReader; secrets: SecretOpener }) {
  return readModelRoutes<ChannelDoc>(deps.reader, {
    path: '/notification-channels',
    resourceName: 'notification channel',
    permission: 'channels:read',
    collection: CHANNELS,
    sort: [['createdAt', 'desc']],
    view: (doc) => channelView(openChannelDoc(doc, deps.secrets)),
    accepts: ['type'],
    listFilter: (ctx): Filter => {
      const type = ctx.query.type;
      if (type === undefined) return {};
      if (!(CHANNEL_TYPES as readonly string[]).includes(String(type))) {
        throw badRequest(`type must be one of ${CHANNEL_TYPES.join(', ')}`, [{ path: '/type', message: 'invalid' }]);
      }
      return { type: String(type) };
    },
  });
}
