/**
 * The catch-up before the live subscription: while the projections are far behind the log (a cold
 * start, a long stop), the log is read in large pages, each applied as one batch (one read-store
 * transaction per projection), instead of event by event through the subscription's buffer. Ends
 * at the first page that is not full (the head is near: the subscription takes over from there),
 * when a projection fails to apply a page (the batch loop retries it), or when the runner stops.
 */
import type { EventStore, RecordedEvent } from '../eventstore/port.js';

/** Events read and applied per batch while catching up. */
export const CATCH_UP_PAGE = 20_000;

export async function catchUpInPages(deps: {
  eventStore: EventStore;
  /** Where the next page starts: the position every live projection has reached. */
  from: () => bigint;
  /** Applies a page; resolves whether every projection applied it. */
  apply: (batch: RecordedEvent[]) => Promise<boolean>;
  isRunning: () => boolean;
}): Promise<void> {
  while (deps.isRunning()) {
    const from = deps.from();
    const events = await deps.eventStore.readAll({ after: from < 0n ? undefined : from, maxCount: CATCH_UP_PAGE });
    if (events.length === 0 || !(await deps.apply(events)) || events.length < CATCH_UP_PAGE) return;
  }
}
