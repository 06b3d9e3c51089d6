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
 *
 * A stream that is refused (a person's or a tenant's cap of live streams, issue 39) or keeps failing
 * does not leave the view frozen: the feed becomes 'paused', with a note saying why, and calls
 * `onPoll` every 15 s so the view reads itself again, while it tries the stream again now and then
 * (feed-fallback.ts decides when). EventSource does not tell why a stream did not open, so after
 * such an error the feed asks the server once with a plain request (api.whyRefused).
 */
import type { ApiClient, StreamRefusal } from './client.js';
import { afterFailure, LIVE, pausedNote, POLL_EVERY_MS, type FeedFailure } from './feed-fallback.js';

export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'paused';

/** The timers the feed waits with (the browser's; virtual ones in tests). */
export interface FeedTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface FeedOptions {
  api: ApiClient;
  /** The feed path under /api/v1, e.g. /api/v1/incidents/stream. */
  path: string;
  /** The event names to listen to (EventSource delivers named events only to their listeners). */
  events: readonly string[];
  onEvent: (name: string, data: unknown) => void;
  /** `note`: while 'paused', why and how the view is kept fresh, in words to show. */
  onState?: (state: FeedState, note?: string) => void;
  /** Live again after a drop: what happened meanwhile may be missing, so read the view again. */
  onReconnect?: () => void;
  /** While paused, every 15 s (and once as the pause begins): read the view again. */
  onPoll?: () => void;
  timers?: FeedTimers;
  /** The feed's event ids are log positions (the incident feed's): reads after an event wait for it. */
  idsArePositions?: boolean;
}

const browserTimers: FeedTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function openEventFeed(options: FeedOptions): () => void {
  const timers = options.timers ?? browserTimers;
  let source: EventSource | undefined;
  let lastEventId = '';
  let closed = false;
  let fallback = LIVE;
  let retry: unknown;
  let poll: unknown;
  let dropped = false;

  const polling = () => {
    poll = timers.setTimeout(polling, POLL_EVERY_MS);
    options.onPoll?.();
  };
  const stopPolling = () => {
    if (poll !== undefined) timers.clearTimeout(poll);
    poll = undefined;
  };

  /** The stream is not open (it did not open, or it dropped): wait, then try again; maybe pause. */
  const failed = (failure: FeedFailure) => {
    source?.close();
    source = undefined;
    if (closed) return;
    dropped = true;
    const step = afterFailure(fallback, failure);
    fallback = step.state;
    if (fallback.pausedBecause === undefined) options.onState?.('reconnecting');
    else {
      options.onState?.('paused', pausedNote(fallback.pausedBecause));
      if (poll === undefined) polling();
    }
    retry = timers.setTimeout(() => void connect(), step.retryInMs);
  };

  const refusalOf = (refused: StreamRefusal | undefined): FeedFailure => (refused ? { refused } : {});

  async function connect() {
    let ticket: string;
    try {
      ticket = (await options.api.send<{ ticket: string }>('POST', '/api/v1/stream-tickets', { path: options.path }))
        .ticket;
    } catch (error) {
      // A 429 here is the caller's cap of unused tickets: a refusal like the stream's own.
      const { status, message, retryAfterSeconds } = error as {
        status?: number;
        message: string;
        retryAfterSeconds?: number;
      };
      return failed(status === 429 ? { refused: { detail: message, retryAfterSeconds } } : {});
    }
    if (closed) return;
    const query = new URLSearchParams({ ticket });
    if (lastEventId) query.set('last_event_id', lastEventId);
    const opened = new EventSource(`${options.path}?${query}`);
    source = opened;
    let opens = false;
    opened.onopen = () => {
      opens = true;
      fallback = LIVE;
      stopPolling();
      options.onState?.('live');
      if (dropped) {
        dropped = false;
        options.onReconnect?.();
      }
    };
    opened.onerror = () => {
      if (source !== opened) return;
      if (opens) return failed({});
      // The server took the ticket but not the stream: a position beyond its log's head (so the
      // position is forgotten), or a refusal (a cap of live streams), which only a plain request tells.
      lastEventId = '';
      source.close();
      source = undefined;
      void options.api.whyRefused(options.path).then(
        (refused) => failed(refusalOf(refused)),
        () => failed({}),
      );
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
    if (retry !== undefined) timers.clearTimeout(retry);
    stopPolling();
    source?.close();
  };
}
