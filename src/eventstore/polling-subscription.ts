import type { RecordedEvent, Subscription } from './port.js';

export interface PollingSubscriptionSource {
  /** Exclusive start position. */
  after: bigint;
  /**
   * Synchronous read of the next events after a position (none when caught up), and the highest
   * position it examined: beyond the last event when it passed over events it does not deliver
   * (a stream filter), so the next read starts there instead of searching the same ones again.
   */
  read: (after: bigint) => { events: RecordedEvent[]; examinedTo: bigint };
  /** Registers a wake-up for new commits; returns the unregister function. */
  onCommit: (listener: () => void) => () => void;
  /** True once the underlying store is closed: the subscription ends. */
  isClosed: () => boolean;
  pollIntervalMs: number;
}

/**
 * Catch-up then live subscription over a store whose reads are synchronous. Because the read and
 * the decision to wait happen in the same synchronous step, a commit notice cannot slip between
 * them: there is no gap or duplicate at the hand-over from catch-up to live. (A writer on another
 * thread may commit between the two, but its notice reaches this thread only afterwards, so it
 * still wakes the wait.)
 */
export function pollingSubscription(source: PollingSubscriptionSource): Subscription {
  let position = source.after;
  let closed = false;
  let wake: (() => void) | undefined;
  let commitsSinceRead = 0;
  const unregister = source.onCommit(() => {
    commitsSinceRead++;
    wake?.();
  });

  const waitForCommit = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, source.pollIntervalMs);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
    });

  async function* iterate(): AsyncGenerator<RecordedEvent> {
    try {
      while (!closed && !source.isClosed()) {
        commitsSinceRead = 0;
        const { events, examinedTo } = source.read(position);
        for (const event of events) {
          if (closed) return;
          position = event.position;
          yield event;
        }
        if (examinedTo > position) position = examinedTo;
        // No events: the read searched everything committed before it; wait for the next commit.
        if (events.length === 0 && commitsSinceRead === 0) await waitForCommit();
      }
    } finally {
      closed = true;
      unregister();
    }
  }

  const iterator = iterate();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      closed = true;
      wake?.();
      unregister();
    },
  };
}
