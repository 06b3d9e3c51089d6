/**
 * The loop that keeps the read models current: it takes what the buffer holds as one batch and
 * applies it; a batch some projection could not apply goes back into the buffer and is retried
 * after a delay that doubles up to 5 s (events the healthy projections applied are skipped by
 * position on the retry).
 */
import type { RecordedEvent } from '../eventstore/port.js';
import type { EventBuffer } from './event-buffer.js';

const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5000;

/** Runs until `isRunning` turns false; `apply` resolves whether every projection applied the batch. */
export async function runBatchLoop(
  buffer: EventBuffer,
  apply: (batch: RecordedEvent[]) => Promise<boolean>,
  isRunning: () => boolean,
): Promise<void> {
  let retryDelay = FIRST_RETRY_MS;
  while (isRunning()) {
    if (buffer.isEmpty()) {
      await buffer.untilEvents();
      // The subscription hands events over one microtask at a time; let it hand over everything
      // it already has before taking a batch, so one read-store transaction covers them all.
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    const batch = buffer.takeAll();
    const healthy = await apply(batch);
    if (!healthy && isRunning()) {
      buffer.putBack(batch);
      await new Promise((resolve) => setTimeout(resolve, retryDelay).unref());
      retryDelay = Math.min(retryDelay * 2, LONGEST_RETRY_MS);
    } else {
      retryDelay = FIRST_RETRY_MS;
      buffer.drained();
    }
  }
}
