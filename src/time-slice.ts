/**
 * Cooperative time slices for long computations on the main thread (escalation previews, on-call
 * analytics): a loop calls `pause()` before each piece of work, and once the current slice has run
 * `sliceMs` the pause waits for the event loop's next turn (setImmediate, after pending I/O), so
 * /health, other requests and the evaluator's ticks run between slices instead of behind the whole
 * computation. Pieces started in parallel (Promise.all) share one slice and one wait.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Long enough that yielding costs little; short enough that a /health probe waits ~10 ms per running request. */
export const DEFAULT_SLICE_MS = 10;

export type Pause = () => Promise<void>;

export function timeSlices(sliceMs = DEFAULT_SLICE_MS, clock: () => number = () => performance.now()): Pause {
  let sliceStart = clock();
  let turn: Promise<void> | null = null;
  return async () => {
    while (clock() - sliceStart >= sliceMs) {
      turn ??= nextTurn().then(() => {
        sliceStart = clock();
        turn = null;
      });
      await turn;
    }
  };
}

/** For callers that have nothing to share the thread with (tests of the math, one-shot tools). */
export const noPause: Pause = async () => {};
