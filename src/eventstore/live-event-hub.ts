/**
 * One subscription to the live end of the log, fanned out to every listener (SSE connections).
 * N clients cost one subscription, not N. A listener registered while the hub is at position P
 * receives every event after P; `from` tells a new listener where its own catch-up must end.
 * If the subscription cannot start, the next listener tries again; if it ends, every listener is
 * told (SSE clients then reconnect with Last-Event-ID) and the next listener starts a new one.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/port.js';

export type LiveListener = (event: RecordedEvent) => void;

interface Registration {
  onEvent: LiveListener;
  onEnd: () => void;
}

export function createLiveEventHub(eventStore: EventStore, logger: Logger) {
  const registrations = new Set<Registration>();
  let position = -1n;
  let subscription: Subscription | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;

  const follow = async (sub: Subscription) => {
    try {
      for await (const event of sub) {
        position = event.position;
        for (const registration of registrations) {
          try {
            registration.onEvent(event);
          } catch (error) {
            logger.warn({ err: error }, 'live event listener failed');
          }
        }
      }
    } catch (error) {
      logger.error({ err: error }, 'live event subscription failed');
    } finally {
      if (subscription === sub) {
        subscription = undefined;
        starting = undefined;
      }
      const ended = [...registrations];
      registrations.clear();
      for (const registration of ended) registration.onEnd();
    }
  };

  const start = () =>
    (starting ??= (async () => {
      position = await eventStore.headPosition();
      const sub = eventStore.subscribeToAll({ after: position < 0n ? undefined : position });
      subscription = sub;
      void follow(sub);
    })().catch((error) => {
      starting = undefined;
      throw error;
    }));

  return {
    /** Registers a listener; `from` is the position after which it will receive events. */
    async listen(onEvent: LiveListener, onEnd: () => void = () => {}): Promise<{ from: bigint; stop: () => void }> {
      if (closed) throw new Error('the live event hub is closed');
      await start();
      const registration = { onEvent, onEnd };
      registrations.add(registration);
      return { from: position, stop: () => registrations.delete(registration) };
    },
    listenerCount: () => registrations.size,
    /** Stops following the log and ends every listener (SSE responses close, so a shutdown is not held up). */
    async close() {
      closed = true;
      await subscription?.close();
      const ended = [...registrations];
      registrations.clear();
      for (const registration of ended) registration.onEnd();
    },
  };
}

export type LiveEventHub = ReturnType<typeof createLiveEventHub>;
