/**
 * One subscription to the live end of the log, fanned out to every listener (SSE connections).
 * N clients cost one subscription, not N. A listener registered while the hub is at position P
 * receives every event after P; `position` tells a new listener where its own catch-up must end.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/port.js';

export type LiveListener = (event: RecordedEvent) => void;

export function createLiveEventHub(eventStore: EventStore, logger: Logger) {
  const listeners = new Set<LiveListener>();
  let position = -1n;
  let subscription: Subscription | undefined;
  let starting: Promise<void> | undefined;

  const start = () =>
    (starting ??= (async () => {
      position = await eventStore.headPosition();
      subscription = eventStore.subscribeToAll({ after: position < 0n ? undefined : position });
      void (async () => {
        for await (const event of subscription!) {
          position = event.position;
          for (const listener of listeners) {
            try {
              listener(event);
            } catch (error) {
              logger.warn({ err: error }, 'live event listener failed');
            }
          }
        }
      })().catch((error) => logger.error({ err: error }, 'live event subscription ended'));
    })());

  return {
    /** Registers a listener; resolves with the position after which it will receive events. */
    async listen(listener: LiveListener): Promise<{ from: bigint; stop: () => void }> {
      await start();
      listeners.add(listener);
      return { from: position, stop: () => listeners.delete(listener) };
    },
    listenerCount: () => listeners.size,
    async close() {
      listeners.clear();
      await subscription?.close();
    },
  };
}

export type LiveEventHub = ReturnType<typeof createLiveEventHub>;
