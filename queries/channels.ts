import Router from '@koa/router';
import { maskChannelConfig, type ChannelType } from '../commands/channel-config.js';
import { CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { badRequest, notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

/** The channel as clients see it: secrets masked. */
export const channelView = (doc: ChannelDoc) => ({
  id: doc.id,
  name: doc.name,
  type: doc.type,
  config: maskChannelConfig(doc.type as ChannelType, doc.config),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export async function findChannel(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await reader.get<ChannelDoc>(CHANNELS, id);
  return doc && doc.tenantId === tenantId ? doc : null;
}

export function channelQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/notification-channels', requires('channels:read'), async (ctx) => {
    const type = ctx.query.type;
    if (type !== undefined && !['chat', 'email', 'pager', 'webhook'].includes(String(type))) {
      throw badRequest('type must be one of chat, email, pager, webhook', [{ path: '/type', message: 'invalid' }]);
    }
    const filter = { tenantId: ctx.state.principal.tenantId, ...(type ? { type: String(type) } : {}) };
    const { items, page } = await readPage<ChannelDoc>(deps.reader, CHANNELS, filter, [['createdAt', 'desc']], pageRequest(ctx));
    okPage(ctx, items.map(channelView), page);
  });

  router.get('/notification-channels/:id', requires('channels:read'), async (ctx) => {
    const doc = await findChannel(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('notification channel');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, channelView(doc));
  });
  return router;
}
