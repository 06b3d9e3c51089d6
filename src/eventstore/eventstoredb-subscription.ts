/**
 * A catch-up subscription to $all that survives being dropped.
 *
 * Long-lived gRPC streams can end without warning (a node restart, a proxy's idle timeout, a
 * network blip). When the client's subscription errors or ends and we did not ask for it, we
 * subscribe again from the last position we delivered, after a growing delay. EventStoreDB
 * subscriptions start strictly after the given position, and we also skip anything at or before
 * it, so the hand-over neither repeats nor loses an event.
 *
 * Events are pulled one at a time with `for await` from the client's stream, which gives ordering
 * and backpressure (a 'data' listener would give neither).
 */
import { START, excludeSystemEvents, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import type { RecordedEvent, Subscription } from './port.js';
import { clientPosition, isSystemEvent, toRecordedEvent } from './eventstoredb-mapping.js';

export interface ResubscribeBackoff {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESUBSCRIBE_BACKOFF: ResubscribeBackoff = { initialDelayMs: 50, maxDelayMs: 5_000 };

export function resubscribingAllSubscription(
  client: EventStoreDBClient,
  options: { after?: bigint; backoff: ResubscribeBackoff; onClose: (subscription: Subscription) => void },
): Subscription {
  /** Exclusive: the position of the last event delivered (or the caller's start). */
  let lastDelivered = options.after !== undefined && options.after >= 0n ? options.after : undefined;
  let closed = false;
  let current: AllStreamSubscription | undefined;
  let wakeFromBackoff: (() => void) | undefined;

  const open = (): AllStreamSubscription =>
    client.subscribeToAll({
      fromPosition: lastDelivered === undefined ? START : clientPosition(lastDelivered),
      filter: excludeSystemEvents(),
    });

  const release = async (subscription: AllStreamSubscription) => {
    if (current === subscription) current = undefined;
    // unsubscribe() cancels the gRPC call but leaves the client's stream open; destroy() ends
    // the pending read of our loop.
    await subscription.unsubscribe().catch(() => {});
    subscription.destroy();
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeFromBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wakeFromBackoff = undefined;
    });

  async function* deliver(): AsyncGenerator<RecordedEvent> {
    let delayMs = options.backoff.initialDelayMs;
    try {
      while (!closed) {
        const clientSubscription = open();
        current = clientSubscription;
        // The iterator below sees every error; this listener only keeps a late error, emitted after
        // we stopped reading, from crashing the process as an unhandled 'error' event.
        clientSubscription.on('error', () => {});
        const events = clientSubscription[Symbol.asyncIterator]() as AsyncIterator<AllStreamResolvedEvent>;
        try {
          for (;;) {
            let step: IteratorResult<AllStreamResolvedEvent>;
            try {
              step = await events.next();
            } catch {
              break; // dropped (or destroyed by close()): decided below
            }
            if (step.done || closed) break;
            const resolved = step.value;
            // Mapping errors are not connection trouble: let them end the iteration loudly.
            if (isSystemEvent(resolved)) continue;
            const event = toRecordedEvent(resolved);
            if (lastDelivered !== undefined && event.position <= lastDelivered) continue;
            lastDelivered = event.position;
            delayMs = options.backoff.initialDelayMs;
            yield event;
            if (closed) return;
          }
        } finally {
          await release(clientSubscription);
        }
        if (closed) return;
        await pause(delayMs);
        delayMs = Math.min(delayMs * 2, options.backoff.maxDelayMs);
      }
    } finally {
      closed = true;
      options.onClose(subscription);
    }
  }

  const iterator = deliver();
  const subscription: Subscription = {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      if (closed) return;
      closed = true;
      wakeFromBackoff?.();
      if (current) await release(current);
      options.onClose(subscription);
    },
  };
  return subscription;
}
