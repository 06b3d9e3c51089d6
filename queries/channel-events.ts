/**
 * A notification channel's raw event history (`GET /notification-channels/{id}/events`,
 * `audit:read`): every change and every test send (ChannelTestSent), oldest first. The log holds
 * the channel's secrets in clear once opened, so each event is redacted the way answers are:
 * config secrets masked, the signing secret left out (it is shown once, when issued).
 */
import Router from '@koa/router';
import { loadStream } from '../src/commanding/command-handler.js';
import type { EventStore } from '../src/eventstore/port.js';
import { maskChannelConfig } from '../src/events/channel-secrets.js';
import {
  channelStream,
  evolveChannel,
  initialChannelState,
  type ChannelEvent,
  type ChannelState,
} from '../src/events/channel.js';
import { ok } from '../src/http/envelope.js';
import { historyChainOf, historyEntry } from '../src/http/event-history.js';
import { requires } from '../src/http/guard.js';
import { notFound } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';

/** The event's data as an auditor may see it. Every event type is named, so a new one needs a decision here. */
export function redactedChannelEvent(event: ChannelEvent): Record<string, unknown> {
  switch (event.type) {
    case 'ChannelCreated':
    case 'ChannelUpdated':
      return { ...event.data, config: maskChannelConfig(event.data.type, event.data.config) };
    case 'ChannelSigningSecretSet':
      return { channelId: event.data.channelId };
    case 'ChannelDeleted':
    case 'ChannelTestSent':
      return event.data;
  }
}

export function channelEventRoutes(deps: { eventStore: EventStore }) {
  const router = new Router<AppState>();
  router.get('/notification-channels/:id/events', requires('audit:read'), queryParameters([]), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const loaded = await loadStream<ChannelState, ChannelEvent>(
      deps.eventStore,
      { initialState: initialChannelState, evolve: evolveChannel },
      channelStream(id),
      ctx.state.principal.tenantId,
      'notification channel',
    );
    if (loaded.events.length === 0) throw notFound('notification channel');
    const chain = await historyChainOf(deps.eventStore, channelStream(id));
    ok(
      ctx,
      loaded.events.map((event, index) =>
        historyEntry(event, chain, redactedChannelEvent(loaded.domainEvents[index]!)),
      ),
    );
  });
  return router;
}
