/** Notification channels, read side: list and get, secrets masked. */
import { CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { maskChannelConfig } from '../src/events/channel-secrets.js';
import { CHANNEL_TYPES, type ChannelType } from '../src/events/vocabulary.js';
import { badRequest } from '../src/http/problem.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

/** The channel as clients see it: secrets masked. */
export const channelView = (doc: ChannelDoc) => ({
  id: doc.id,
  name: doc.name,
  type: doc.type,
  config: maskChannelConfig(doc.type as ChannelType, doc.config),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findChannel = (reader: ReadModelReader, tenantId: string, id: string) => findTenantDoc<ChannelDoc>(reader, CHANNELS, tenantId, id);

export function channelQueryRoutes(deps: { reader: ReadModelReader }) {
  return readModelRoutes<ChannelDoc>(deps.reader, {
    path: '/notification-channels',
    resourceName: 'notification channel',
    permission: 'channels:read',
    collection: CHANNELS,
    sort: [['createdAt', 'desc']],
    view: channelView,
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
