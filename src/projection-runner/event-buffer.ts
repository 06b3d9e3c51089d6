/**
 * The events the log subscription has handed over and the batch loop has not taken yet. The loop
 * sleeps while it is empty and is woken by the next event; the subscription stops pulling while it
 * is full (backpressure: a stuck projection must not make the runner hold the log in memory).
 */
import type { RecordedEvent } from '../eventstore/port.js';

/** Events held in memory at most; beyond it the subscription is not read further. */
const MAX_BUFFERED_EVENTS = 10_000;

export type EventBuffer = ReturnType<typeof eventBuffer>;

export function eventBuffer() {
  let events: RecordedEvent[] = [];
  let wake: (() => void) | undefined;
  let drained: (() => void) | undefined;
  return {
    isEmpty: () => events.length === 0,
    isFull: () => events.length >= MAX_BUFFERED_EVENTS,
    /** The position of the last event held (undefined when empty). */
    lastPosition: () => events.at(-1)?.position,
    /** How many held events lie beyond `position` (a projection's lag). */
    countAfter: (position: bigint) => events.filter((e) => e.position > position).length,

    /** Adds an event and wakes the loop if it sleeps. */
    push(event: RecordedEvent) {
      events.push(event);
      wake?.();
    },
    /** Takes everything held, as one batch. */
    takeAll(): RecordedEvent[] {
      const batch = events;
      events = [];
      return batch;
    },
    /** Puts a batch that was not applied back in front of what arrived since. */
    putBack(batch: RecordedEvent[]) {
      events = [...batch, ...events];
    },

    /** The loop: resolves when the next event arrives (or on `releaseWaiters`). */
    async untilEvents() {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    },
    /** The subscription: resolves when a batch has been applied (or on `releaseWaiters`). */
    untilRoom: () => new Promise<void>((resolve) => (drained = resolve)),
    /** The loop has applied a batch: the subscription may pull again. */
    drained() {
      drained?.();
      drained = undefined;
    },
    /** On stop: nobody waits on the buffer any longer. */
    releaseWaiters() {
      wake?.();
      drained?.();
    },
  };
}
