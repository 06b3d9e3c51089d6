/**
 * A server-sent event feed for the browser: EventSource cannot send the Authorization header, so
 * each connection first asks for a one-time stream ticket (POST /api/v1/stream-tickets) and opens
 * `<path>?ticket=…`; the token never appears in a URL. A ticket is spent once, so EventSource's
 * own reconnection (same URL) would be refused: on any error the feed closes the source and
 * reconnects itself with a fresh ticket, resuming after the last event id it saw (the incident
 * feed replays what was missed from the log), with a growing back-off.
 *
 * A replay is not enough to trust a view after a drop: a feed that had seen no event yet has no
 * position to resume from, and a restarted server may refuse a position it no longer knows. So
 * `onReconnect` tells the view each time the feed is live again after a drop, and the view reads
 * its state again (issue 29, defect 4). A feed whose fresh ticket was accepted but whose stream
 * failed before it opened forgets its position (the server refused it), and reloading covers it.
 */
import type { ApiClient } from './client.js';

export type FeedState = 'connecting' | 'live' | 'reconnecting';

export interface FeedOptions {
  api: ApiClient;
  /** The feed path under /api/v1, e.g. /api/v1/incidents/stream. */
  path: string;
  /** The event names to listen to (EventSource delivers named events only to their listeners). */
  events: readonly string[];
  onEvent: (name: string, data: unknown) => void;
  onState?: (state: FeedState) => void;
  /** Live again after a drop: what happened meanwhile may be missing, so read the view again. */
  onReconnect?: () => void;
  /** The feed's event ids are log positions (the incident feed's): reads after an event wait for it. */
  idsArePositions?: boolean;
}

const MAX_BACKOFF_MS = 15_000;

export function openEventFeed(options: FeedOptions): () => void {
  let source: EventSource | undefined;
  let lastEventId = '';
  let closed = false;
  let backoffMs = 500;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let dropped = false;

  const reconnect = () => {
    source?.close();
    source = undefined;
    if (closed) return;
    dropped = true;
    options.onState?.('reconnecting');
    retry = setTimeout(() => void connect(), backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  };

  async function connect() {
    let ticket: string;
    try {
      ticket = (await options.api.send<{ ticket: string }>('POST', '/api/v1/stream-tickets', { path: options.path }))
        .ticket;
    } catch {
      return reconnect();
    }
    if (closed) return;
    const query = new URLSearchParams({ ticket });
    if (lastEventId) query.set('last_event_id', lastEventId);
    const opened = new EventSource(`${options.path}?${query}`);
    source = opened;
    let opens = false;
    opened.onopen = () => {
      opens = true;
      backoffMs = 500;
      options.onState?.('live');
      if (dropped) {
        dropped = false;
        options.onReconnect?.();
      }
    };
    opened.onerror = () => {
      if (source !== opened) return;
      // The server took the ticket but not the stream (e.g. a position beyond its log's head).
      if (!opens) lastEventId = '';
      reconnect();
    };
    for (const name of options.events) {
      opened.addEventListener(name, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        if (options.idsArePositions) options.api.sawPosition(message.lastEventId);
        options.onEvent(name, JSON.parse(message.data));
      });
    }
  }

  options.onState?.('connecting');
  void connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}
