/**
 * The live subscription: one subscription to the global log feeds every projection through the
 * buffer. It starts after what the buffer already holds, else after the lowest checkpoint. When it
 * ends with an error every projection has stopped, so `endedReason` says so (health reads it) until
 * events flow again, and it is resubscribed after a delay that doubles up to 30 s.
 */
import type { Logger } from 'pino';
import type { EventStore, Subscription } from '../eventstore/port.js';
import type { EventBuffer } from './event-buffer.js';

const FIRST_RESUBSCRIBE_MS = 100;
const LONGEST_RESUBSCRIBE_MS = 30_000;

export interface LogSubscriptionDeps {
  eventStore: EventStore;
  logger: Logger;
  buffer: EventBuffer;
  /** Where to start when the buffer is empty: the position every projection has reached. */
  lowestPosition: () => bigint;
  isRunning: () => boolean;
  /** Told when the subscription has ended (after `endedReason` is set). */
  onEnded: () => void;
}

export interface LogSubscription {
  /** Why every projection has stopped: the subscription ended and events have not flowed since. */
  readonly endedReason: string | undefined;
  close(): Promise<void>;
}

export function followLog(deps: LogSubscriptionDeps): LogSubscription {
  let subscription: Subscription | undefined;
  let endedReason: string | undefined;
  let resubscribe: NodeJS.Timeout | undefined;
  let resubscribeDelay = FIRST_RESUBSCRIBE_MS;

  function follow() {
    // After what is already buffered (the ended subscription handed it over), else the lowest checkpoint.
    const after = deps.buffer.lastPosition() ?? deps.lowestPosition();
    const current = deps.eventStore.subscribeToAll({ after: after < 0n ? undefined : after });
    subscription = current;
    void pump(current).catch((error) => {
      if (!deps.isRunning()) return;
      // Every projection stops here: health must say so (not only this one log line) until events flow again.
      endedReason = `the log subscription ended: ${(error as Error).message}`;
      deps.logger.error(
        { err: error, retryInMs: resubscribeDelay },
        'projection subscription ended: every projection has stopped; resubscribing',
      );
      deps.onEnded();
      resubscribe = setTimeout(() => deps.isRunning() && follow(), resubscribeDelay);
      resubscribe.unref();
      resubscribeDelay = Math.min(resubscribeDelay * 2, LONGEST_RESUBSCRIBE_MS);
    });
  }

  async function pump(sub: Subscription) {
    for await (const event of sub) {
      if (endedReason) {
        endedReason = undefined;
        resubscribeDelay = FIRST_RESUBSCRIBE_MS;
      }
      deps.buffer.push(event);
      // Backpressure: while a projection is stuck, stop pulling rather than hold the log in memory.
      while (deps.buffer.isFull() && deps.isRunning()) await deps.buffer.untilRoom();
    }
  }

  follow();
  return {
    get endedReason() {
      return endedReason;
    },
    async close() {
      clearTimeout(resubscribe);
      await subscription?.close();
    },
  };
}
