/**
 * The evaluator's schedule keeps ticking after a slow tick. node-schedule answers null (and never
 * runs) for a date already past; "right after a slow tick" is such a date on a busy machine, and
 * before the fix the evaluator then stopped for good (found seeding 2,000 rules at a 1-s interval).
 */
import test from 'ava';
import schedule from 'node-schedule';
import pino from 'pino';
import { nextGridInstant, scheduleEvaluator, type ScheduleAt } from '../src/process/evaluator-schedule.js';
import { waitFor } from './support/wait-for.js';

const logger = pino({ level: 'silent' });

test('node-schedule refuses a date already past (the behaviour the schedule must survive)', (t) => {
  let ran = false;
  // Its types promise a Job; at run time the answer is null.
  t.is(
    schedule.scheduleJob(new Date(Date.now() - 1), () => {
      ran = true;
    }) as unknown,
    null,
  );
  t.false(ran);
});

/** A clock and a scheduler on it that, like node-schedule, refuses any date not after its now. */
function virtualScheduler() {
  let now = 1_000_000;
  const pending: { at: number; run: () => void }[] = [];
  const scheduleAt: ScheduleAt = (at, run) => {
    now += 2; // planning is not instantaneous on a busy machine
    if (at.getTime() <= now) return null;
    const entry = { at: at.getTime(), run };
    pending.push(entry);
    return { cancel: () => void pending.splice(pending.indexOf(entry), 1) };
  };
  return {
    scheduleAt,
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    /** Runs the earliest pending job after moving the clock to its time. */
    fireNext() {
      pending.sort((a, b) => a.at - b.at);
      const next = pending.shift();
      if (!next) return false;
      now = Math.max(now, next.at);
      next.run();
      return true;
    },
    get pending() {
      return pending.length;
    },
  };
}

test('a tick that ends after the next slot was due is followed by another tick, not by silence', async (t) => {
  const clock = virtualScheduler();
  let ticks = 0;
  // Every tick takes 1.5 intervals of the virtual clock, and the clock moves on while the next
  // tick is being planned: the planned "right after" instant is already past when it is scheduled.
  const evaluator = {
    async tick() {
      ticks += 1;
      clock.advance(1_500);
      return { rules: 0, metricReads: 0, triggered: 0, resolved: 0, errors: 0, recorded: 0, durationMs: 1_500 };
    },
  };
  const running = scheduleEvaluator(evaluator, {
    intervalSeconds: 1,
    logger,
    scheduleAt: clock.scheduleAt,
    now: clock.now,
  });
  t.true(clock.fireNext(), 'the first tick is on the grid');
  await waitFor(() => (clock.fireNext(), ticks >= 5), {
    timeoutMs: 5_000,
    intervalMs: 1,
    message: `five ticks (saw ${ticks})`,
  });
  await running.stop();
  const after = ticks;
  clock.fireNext();
  t.is(ticks, after, 'no tick after stop');
});

test('ticks start on the interval grid', (t) => {
  t.is(nextGridInstant(61_000, 60_000), 120_000);
  t.is(nextGridInstant(120_000, 60_000), 180_000);
  t.is(nextGridInstant(0, 5_000), 5_000);
});
