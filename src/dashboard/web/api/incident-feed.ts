/**
 * The tenant's incident feed (openEventFeed over /api/v1/incidents/stream, with its stream tickets
 * and reconnection), shared: every view of the tab that follows incidents (the tab title's count,
 * the list, one incident's page) listens to one EventSource, so a tab holds one connection of the
 * browser's few per host, and moving between pages does not drop and reopen it.
 *
 * `followIncident` narrows it to one incident id; its `onChange` is also called each time the feed
 * is live (first connection and every reconnection): whatever happened before it listened, or
 * while it was down, is read again then.
 */
import type { ApiClient } from './client';
import { openEventFeed, type FeedState } from './event-feed';

/** Every event type an incident's stream holds (src/events/incident.ts and escalation.ts). */
export const INCIDENT_STREAM_EVENT_TYPES = [
  'IncidentTriggered',
  'IncidentAcknowledged',
  'IncidentResolved',
  'IncidentNoteAdded',
  'EscalationStarted',
  'EscalationNotStarted',
  'EscalationStageFired',
  'NotificationDelivered',
  'NotificationFailed',
  'NotificationRetryScheduled',
] as const;

export interface IncidentFeedListener {
  onEvent?: (name: string, data: unknown) => void;
  /** `note`: while 'paused', why, and that the view refreshes itself (to show). */
  onState?: (state: FeedState, note?: string) => void;
  /** Live again after a drop: read the view again. */
  onReconnect?: () => void;
  /** Live updates are paused (the stream refused or failing): read the view again; every 15 s. */
  onPoll?: () => void;
}

interface SharedFeed {
  listeners: Set<IncidentFeedListener>;
  state: FeedState;
  note?: string;
  close: () => void;
}

const feeds = new Map<ApiClient, SharedFeed>();

/** Listens to the tenant's incident feed; the feed opens with the first listener and closes with the last. */
export function subscribeIncidentFeed(api: ApiClient, listener: IncidentFeedListener): () => void {
  let feed = feeds.get(api);
  if (!feed) {
    const listeners = new Set<IncidentFeedListener>();
    const shared: SharedFeed = { listeners, state: 'connecting', close: () => undefined };
    feeds.set(api, shared);
    shared.close = openEventFeed({
      api,
      path: '/api/v1/incidents/stream',
      events: INCIDENT_STREAM_EVENT_TYPES,
      idsArePositions: true,
      onEvent: (name, data) => [...listeners].forEach((l) => l.onEvent?.(name, data)),
      onState: (state, note) => {
        shared.state = state;
        shared.note = note;
        [...listeners].forEach((l) => l.onState?.(state, note));
      },
      onReconnect: () => [...listeners].forEach((l) => l.onReconnect?.()),
      onPoll: () => [...listeners].forEach((l) => l.onPoll?.()),
    });
    feed = shared;
  }
  const joined = feed;
  joined.listeners.add(listener);
  // A listener joining a feed already open learns its state at once ('live': read what you show).
  listener.onState?.(joined.state, joined.note);
  return () => {
    joined.listeners.delete(listener);
    if (joined.listeners.size === 0 && feeds.get(api) === joined) {
      feeds.delete(api);
      joined.close();
    }
  };
}

export interface IncidentFeedOptions {
  api: ApiClient;
  incidentId: string;
  /** Something about this incident happened (the event's type), the feed is live ('live'), or a poll while it is paused ('poll'). */
  onChange: (cause: string) => void;
  onState?: (state: FeedState, note?: string) => void;
}

export function followIncident({ api, incidentId, onChange, onState }: IncidentFeedOptions): () => void {
  return subscribeIncidentFeed(api, {
    onEvent: (name, data) => {
      if ((data as { incident_id?: string }).incident_id === incidentId) onChange(name);
    },
    onState: (state, note) => {
      if (state === 'live') onChange('live');
      onState?.(state, note);
    },
    onPoll: () => onChange('poll'),
  });
}
