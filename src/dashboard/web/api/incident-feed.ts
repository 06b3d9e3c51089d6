/**
 * One incident's own events, live: the tenant's incident feed (openEventFeed over
 * /api/v1/incidents/stream, with its stream tickets and reconnection) narrowed to one incident id.
 * A wrapper, so the feed's own API stays as the list page uses it.
 *
 * `onChange` is also called each time the feed is live (first connection and every reconnection):
 * whatever happened before it listened, or while it was down, is read again then.
 */
import type { ApiClient } from './client';
import { openEventFeed, type FeedState } from './event-feed';

/** Every event type an incident's stream holds (src/events/incident.ts and escalation.ts). */
export const INCIDENT_STREAM_EVENT_TYPES = [
  'IncidentTriggered', 'IncidentAcknowledged', 'IncidentResolved', 'IncidentNoteAdded',
  'EscalationStarted', 'EscalationNotStarted', 'EscalationStageFired',
  'NotificationDelivered', 'NotificationFailed', 'NotificationRetryScheduled',
] as const;

export interface IncidentFeedOptions {
  api: ApiClient;
  incidentId: string;
  /** Something about this incident happened (the event's type), or the feed is live ('live'). */
  onChange: (cause: string) => void;
  onState?: (state: FeedState) => void;
}

export function followIncident({ api, incidentId, onChange, onState }: IncidentFeedOptions): () => void {
  return openEventFeed({
    api,
    path: '/api/v1/incidents/stream',
    events: INCIDENT_STREAM_EVENT_TYPES,
    onEvent: (name, data) => {
      if ((data as { incident_id?: string }).incident_id === incidentId) onChange(name);
    },
    onState: (state) => {
      if (state === 'live') onChange('live');
      onState?.(state);
    },
  });
}
