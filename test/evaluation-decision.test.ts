import test from 'ava';
import { initialRuleWatch, watchAfterEvaluation } from '../src/events/rule-evaluation.js';
import {
  conditionMet,
  decideEvaluation,
  type Condition,
  type MetricReading,
  type RuleUnderEvaluation,
} from '../src/process/evaluation-decision.js';

const conditions: [Condition, number, number, boolean][] = [
  ['gt', 45, 30, true],
  ['gt', 30, 30, false],
  ['gt', 29.9, 30, false],
  ['gte', 30, 30, true],
  ['gte', 29.99, 30, false],
  ['lt', 10, 30, true],
  ['lt', 30, 30, false],
  ['lte', 30, 30, true],
  ['lte', 30.01, 30, false],
  ['eq', 0.1 + 0.2, 0.3, true],
  ['eq', 30, 30, true],
  ['eq', 30.5, 30, false],
  ['eq', -2, -2, true],
];
for (const [condition, value, threshold, expected] of conditions) {
  test(`${value} ${condition} ${threshold} is ${expected}`, (t) =>
    t.is(conditionMet(condition, value, threshold), expected));
}

const T0 = '2026-11-20T12:00:00.000Z';
const minutesAfterT0 = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);
const base: RuleUnderEvaluation = {
  condition: 'gt',
  threshold: 30,
  windowMinutes: 0,
  hasActiveIncident: false,
  pendingSince: null,
  rearmed: true,
};
const breach = { ok: true, value: 45 } as const;
const clear = { ok: true, value: 10 } as const;
const failure = { ok: false, error: 'cluster paused' } as const;

/** [title, rule state, reading, minutes after T0, outcome, action] */
const decisions: [string, Partial<RuleUnderEvaluation>, MetricReading, number, string, string][] = [
  ['window 0: condition met, no active incident', {}, breach, 0, 'triggered', 'trigger'],
  ['condition met, an active incident', { hasActiveIncident: true }, breach, 0, 'unchanged', 'none'],
  ['condition cleared, an active incident', { hasActiveIncident: true }, clear, 0, 'resolved', 'resolve'],
  ['condition cleared, no incident', {}, clear, 0, 'ok', 'none'],
  ['metric unreadable, an active incident', { hasActiveIncident: true }, failure, 0, 'error', 'none'],
  ['metric unreadable, no incident', {}, failure, 0, 'error', 'none'],
  ['metric unreadable while pending', { windowMinutes: 5, pendingSince: T0 }, failure, 6, 'error', 'none'],
  ['window 5: first breach starts pending', { windowMinutes: 5 }, breach, 0, 'pending', 'none'],
  ['window 5: still breaching 4 minutes later', { windowMinutes: 5, pendingSince: T0 }, breach, 4, 'pending', 'none'],
  ['window 5: still breaching 4m59s later', { windowMinutes: 5, pendingSince: T0 }, breach, 4.99, 'pending', 'none'],
  [
    'window 5: breaching at pending + 5 minutes',
    { windowMinutes: 5, pendingSince: T0 },
    breach,
    5,
    'triggered',
    'trigger',
  ],
  [
    'window 5: breaching later than pending + 5 (a missed tick)',
    { windowMinutes: 5, pendingSince: T0 },
    breach,
    7,
    'triggered',
    'trigger',
  ],
  ['window 5: a dip while pending resets', { windowMinutes: 5, pendingSince: T0 }, clear, 3, 'ok', 'none'],
  ['after a manual resolve, still breaching: not re-armed', { rearmed: false }, breach, 0, 'unchanged', 'none'],
  [
    'after a manual resolve, window passed: not re-armed',
    { rearmed: false, windowMinutes: 5, pendingSince: T0 },
    breach,
    9,
    'unchanged',
    'none',
  ],
  ['after a manual resolve, the condition clears', { rearmed: false }, clear, 0, 'ok', 'none'],
];
for (const [title, state, reading, minutes, outcome, action] of decisions) {
  test(`evaluation: ${title} → ${outcome}`, (t) => {
    const decision = decideEvaluation({ ...base, ...state }, reading, minutesAfterT0(minutes));
    t.is(decision.outcome as string, outcome);
    t.is(decision.action as string, action);
  });
}

/** The README timeline, folded the way the read model folds it: window 5, one evaluation a minute. */
test('timeline: pending t0..t4, triggered at t5; a dip resets the clock; an error neither resets nor advances it', (t) => {
  const run = (readings: MetricReading[]) => {
    let watch = initialRuleWatch();
    return readings.map((reading, minute) => {
      const at = minutesAfterT0(minute);
      const decision = decideEvaluation(
        { ...base, windowMinutes: 5, pendingSince: watch.pendingSince, rearmed: watch.rearmed },
        reading,
        at,
      );
      watch = watchAfterEvaluation(watch, {
        at: at.toISOString(),
        outcome: decision.outcome,
        conditionMet: 'conditionMet' in decision ? decision.conditionMet : null,
        error: null,
      });
      return decision.outcome;
    });
  };
  t.deepEqual(run([breach, breach, breach, breach, breach, breach]), [
    'pending',
    'pending',
    'pending',
    'pending',
    'pending',
    'triggered',
  ]);
  t.deepEqual(run([breach, breach, clear, breach, breach, breach, breach, breach, breach]), [
    'pending',
    'pending',
    'ok',
    'pending',
    'pending',
    'pending',
    'pending',
    'pending',
    'triggered',
  ]);
  t.deepEqual(run([breach, failure, failure, breach, breach, breach]), [
    'pending',
    'error',
    'error',
    'pending',
    'pending',
    'triggered',
  ]);
});
