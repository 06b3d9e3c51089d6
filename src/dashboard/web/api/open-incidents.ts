/**
 * The ids of the tenant's open incidents (triggered or acknowledged), live: read in pages of 200
 * from GET /api/v1/incidents, then kept by the shared incident feed (a trigger adds one, a
 * resolution removes one), and read again each time the feed is live (after a drop, what happened
 * meanwhile may be missing) and at each poll while live updates are paused. Feed changes that arrive during a read are applied over its answer.
 */
import type { ApiClient } from './client';
import type { Endpoints } from './endpoints';
import { subscribeIncidentFeed } from './incident-feed';

const OPEN_QUERY = new URLSearchParams({ status: 'triggered,acknowledged', limit: '200' });

/** Calls `onCount` with the number of open incidents whenever it may have changed; returns the closer. */
export function watchOpenIncidents(api: ApiClient, calls: Endpoints, onCount: (count: number) => void): () => void {
  let open = new Set<string>();
  let round = 0;
  let duringRead: [string, boolean][] | undefined;
  let closed = false;

  const apply = (set: Set<string>, id: string, isOpen: boolean) => (isOpen ? set.add(id) : set.delete(id));

  async function read() {
    const mine = ++round;
    duringRead = [];
    const fresh = new Set<string>();
    let cursor: string | undefined;
    try {
      do {
        const page = await calls.incidentsPage(OPEN_QUERY, cursor);
        if (closed || mine !== round) return;
        for (const incident of page.data) fresh.add(incident.id);
        cursor = page.page.next_cursor ?? undefined;
      } while (cursor);
    } catch {
      // The count stays as it was; the next time the feed is live it is read again.
      return;
    }
    for (const [id, isOpen] of duringRead) apply(fresh, id, isOpen);
    duringRead = undefined;
    open = fresh;
    onCount(open.size);
  }

  const unsubscribe = subscribeIncidentFeed(api, {
    onState: (state) => void (state === 'live' && read()),
    onPoll: () => void read(),
    onEvent: (name, data) => {
      const id = (data as { incident_id?: string }).incident_id;
      const isOpen = name === 'IncidentTriggered' ? true : name === 'IncidentResolved' ? false : undefined;
      if (!id || isOpen === undefined) return;
      duringRead?.push([id, isOpen]);
      apply(open, id, isOpen);
      onCount(open.size);
    },
  });
  return () => {
    closed = true;
    unsubscribe();
  };
}
