/**
 * How the evaluator decides its rules without holding the event loop: in slices of about SLICE_MS,
 * with a turn of the event loop between two. A decision that changes no incident (nearly all of
 * them) is finished at once, without a promise per rule; those that trigger or resolve answer an
 * action, gathered and run ACTION_CONCURRENCY at a time at the end of the slice (or once
 * ACTIONS_PER_BATCH are waiting). A slice also ends after RECORDINGS_PER_SLICE recorded evaluations.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

const ACTION_CONCURRENCY = 16;
/**
 * How long deciding may hold the event loop before it gives it a turn. Deciding is synchronous
 * work (the actions are rare); without a turn now and then a tick over 100,000 rules would hold
 * the event loop, and every HTTP request waiting on it, for its whole length. A fixed count of
 * rules per turn (1,000) did not fit both ticks: a rule decided afresh costs µs, one carried over
 * (src/process/quiet-decisions.ts) a few dozen ns, so 1,000 of them held the loop for 30 µs and a
 * steady tick gave 100 turns it did not need, each one the requests' to take. Slicing by time
 * keeps every hold near this long and the turns as few as that allows. 4 ms slices (and 50
 * recordings) raised the first tick's delay p99 (every rule decided afresh) above the 1,000-rule
 * turns' 1-3 ms on a loaded machine, where a slice of CPU stretches by the time the thread waits.
 */
const SLICE_MS = 2;
/** The clock is read once per this many rules (a power of two). */
const RULES_PER_CLOCK_READ = 64;
/** Actions gathered before they are carried out, ACTION_CONCURRENCY at a time, even inside a slice. */
const ACTIONS_PER_BATCH = 4 * ACTION_CONCURRENCY;
/**
 * Recorded evaluations appended in one slice at most. The log commits what was appended within a
 * turn of the event loop as one batch, and settles the batch's appends in one go: a steady tick's
 * ≈1,650 hour entries, decided within a few ms once quiet decisions are carried over, went out as
 * one batch whose hand-over and settling held the loop for tens of ms.
 */
const RECORDINGS_PER_SLICE = 25;

/** Runs the tasks, at most `limit` at a time. */
async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * Decides items 0 to count − 1 in order. `decide(index)` finishes a quiet decision itself and
 * answers undefined, or answers the action that carries a change out; `recorded()` counts the
 * evaluations recorded so far (a slice ends after RECORDINGS_PER_SLICE more).
 */
export async function decideInSlices(
  count: number,
  decide: (index: number) => (() => Promise<void>) | undefined,
  recorded: () => number,
): Promise<void> {
  let acting: (() => Promise<void>)[] = [];
  let sliceStarted = performance.now();
  let recordedBefore = recorded();
  for (let index = 0; index < count; index++) {
    const action = decide(index);
    if (action) acting.push(action);
    const last = index + 1 === count;
    const full = recorded() - recordedBefore >= RECORDINGS_PER_SLICE;
    if (!last && !full && (index + 1) % RULES_PER_CLOCK_READ !== 0) continue;
    const sliceOver = full || performance.now() - sliceStarted >= SLICE_MS;
    if (!last && !sliceOver && acting.length < ACTIONS_PER_BATCH) continue;
    await runLimited(acting, ACTION_CONCURRENCY);
    acting = [];
    if (!last) await yieldToEventLoop();
    sliceStarted = performance.now();
    recordedBefore = recorded();
  }
}
