/**
 * GET /api/v1/sync/stream: `event: sync_update`, data = the sync status object, once at connect
 * and then every SYNC_STREAM_PERIOD_SECONDS. One timer and one status computation per environment
 * serve every listener of it; the timer stops with the last listener. A person may hold
 * SYNC_STREAMS_PER_USER streams at once, a tenant SYNC_STREAMS_PER_TENANT; one more is a 429.
 */
import Router from '@koa/router';
import { requires } from '../src/http/guard.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { encodeSseFrame, openSse, type SseChannel } from '../src/http/sse.js';
import { endStreamWhenRightsEnd } from '../src/http/stream-rights.js';
import type { AppState } from '../src/http/state.js';
import { createStreamSlots, type StreamCaps } from '../src/http/stream-slots.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { syncStatus, type SyncStatusSettings } from './sync-status.js';

export const SYNC_STREAM_PATH = '/sync/stream';

export interface SyncStreamDeps extends SyncStatusSettings {
  reader: ReadModelReader;
  heartbeatMs: number;
  periodMs: number;
  caps: StreamCaps;
  enroll: (tenantId: string, envId: string) => void;
}

interface Feed {
  listeners: Set<SseChannel>;
  timer: NodeJS.Timeout;
  /** Status computations so far (tests check they are shared). */
  computations: number;
}

export function syncStreamRoutes(deps: SyncStreamDeps) {
  const feeds = new Map<string, Feed>();
  const slots = createStreamSlots({
    caps: deps.caps,
    streamName: 'sync',
    variables: { perPerson: 'SYNC_STREAMS_PER_USER', perTenant: 'SYNC_STREAMS_PER_TENANT' },
    retryAfterSeconds: Math.ceil(deps.periodMs / 1000),
  });
  const router = new Router<AppState>();

  const broadcast = async (tenantId: string, envId: string, feed: Feed) => {
    feed.computations += 1;
    const status = await syncStatus(deps.reader, deps, tenantId, envId).catch(() => null);
    if (!status) return;
    // Encoded once for every listener of the environment.
    const frame = encodeSseFrame({ event: 'sync_update', data: status });
    for (const listener of feed.listeners) listener.sendFrame(frame);
  };

  router.get(SYNC_STREAM_PATH, requires('sync:read'), queryParameters(['ticket']), async (ctx) => {
    const { tenantId, envId } = ctx.state.principal;
    const release = slots.take(ctx.state.principal);
    let first: Awaited<ReturnType<typeof syncStatus>>;
    try {
      deps.enroll(tenantId, envId);
      first = await syncStatus(deps.reader, deps, tenantId, envId);
    } catch (error) {
      release();
      throw error;
    }
    const key = `${tenantId}:${envId}`;
    let feed = feeds.get(key);
    if (!feed) {
      const created: Feed = {
        listeners: new Set(),
        computations: 0,
        timer: setInterval(() => void broadcast(tenantId, envId, created), deps.periodMs),
      };
      created.timer.unref();
      feeds.set(key, (feed = created));
    }
    const sse = openSse(ctx, { heartbeatMs: deps.heartbeatMs });
    endStreamWhenRightsEnd(ctx, sse, 'sync:read');
    feed.listeners.add(sse);
    const joined = feed;
    sse.onClose(() => {
      joined.listeners.delete(sse);
      release();
      if (joined.listeners.size === 0) {
        clearInterval(joined.timer);
        feeds.delete(key);
      }
    });
    sse.send({ event: 'sync_update', data: first });
  });

  return {
    router,
    /** Open feeds and their listeners (tests). */
    feeds: () =>
      [...feeds.values()].map((feed) => ({ listeners: feed.listeners.size, computations: feed.computations })),
    stop() {
      for (const feed of feeds.values()) for (const listener of [...feed.listeners]) listener.close();
    },
  };
}
