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
 *
 * Stream prefixes become the server's stream-name filter, and are checked again here, so an event
 * a server did not filter is still never delivered. A filtered subscription also receives
 * checkpoints (positions the server has searched up to); they are ignored on purpose: the client
 * reports one before the events already buffered ahead of it reach this loop, so resuming from a
 * checkpoint could skip them. After a drop we resume from the last delivered event, which only
 * makes the server search some non-matching events again.
 */
import {
  START,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import type { RecordedEvent, Subscription } from './port.js';
import { clientPosition, isSystemEvent, toRecordedEvent } from './eventstoredb-mapping.js';

export interface ResubscribeBackoff {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESUBSCRIBE_BACKOFF: ResubscribeBackoff = { initialDelayMs: 50, maxDelayMs: 5_000 };

export function resubscribingAllSubscription(
  client: EventStoreDBClient,
  options: {
    after?: bigint;
    streamPrefixes?: readonly string[];
    backoff: ResubscribeBackoff;
    onClose: (subscription: Subscription) => void;
  },
): Subscription {
  const prefixes = options.streamPrefixes;
  const wanted = (streamName: string) =>
    prefixes === undefined || prefixes.some((prefix) => streamName.startsWith(prefix));
  // A prefix filter on stream names also keeps system streams ($...) out, unless a prefix starts
  // with `$`; isSystemEvent below covers that. An empty list (nothing wanted) is not a filter the
  // server is known to accept, so that one is left to the check below.
  const filter =
    prefixes !== undefined && prefixes.length > 0
      ? streamNameFilter({ prefixes: [...prefixes] })
      : excludeSystemEvents();
  /** Exclusive: the position of the last event delivered (or the caller's start). */
  let lastDelivered = options.after !== undefined && options.after >= 0n ? options.after : undefined;
  let closed = false;
  let current: AllStreamSubscription | undefined;
  let wakeFromBackoff: (() => void) | undefined;

  const open = (): AllStreamSubscription =>
    client.subscribeToAll({
      fromPosition: lastDelivered === undefined ? START : clientPosition(lastDelivered),
      filter,
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
            if (isSystemEvent(resolved) || !wanted(resolved.event!.streamId)) continue;
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
