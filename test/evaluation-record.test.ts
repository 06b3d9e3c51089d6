/**
 * The history's recording rule (src/process/evaluation-record.ts): which evaluations become
 * RuleEvaluated events. Table-driven over the pure rule, then given/when/then over the evaluator.
 */
import test from 'ava';
import { initialRuleWatch, type RecordedEvaluation, type RuleWatch } from '../src/events/rule-evaluation.js';
import { HISTORY_HEARTBEAT_MS, heartbeatOffsetMs, shouldRecordEvaluation } from '../src/process/evaluation-record.js';

const RULE = '6f0d2c1e-7a51-4c38-9d5e-0b7f4a2e9c11';
const INCIDENT = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const okAt = (at: string): RecordedEvaluation => ({
  at,
  outcome: 'ok',
  conditionMet: false,
  incidentId: null,
  error: null,
});
const T0 = '2026-11-20T12:00:00.000Z';
const T1 = '2026-11-20T12:01:00.000Z';
const pendingWatch: RuleWatch = { ...initialRuleWatch(), pendingSince: T0 };
const failingWatch: RuleWatch = {
  ...initialRuleWatch(),
  health: 'failing',
  lastError: 'warehouse unavailable',
  failingSince: T0,
};

const cases: {
  name: string;
  last: RecordedEvaluation | null;
  watch?: RuleWatch;
  evaluation: RecordedEvaluation;
  recorded: boolean;
}[] = [
  // A rule with nothing recorded since its creation (at T0) compares with a quiet evaluation then.
  { name: 'a quiet first evaluation (ok, nothing breaches)', last: null, evaluation: okAt(T1), recorded: false },
  {
    name: 'a first evaluation that breaches (the pending clock starts)',
    last: null,
    evaluation: { ...okAt(T1), outcome: 'pending', conditionMet: true },
    recorded: true,
  },
  {
    name: 'a first evaluation that fails',
    last: null,
    evaluation: { ...okAt(T1), outcome: 'error', conditionMet: null, error: 'warehouse unavailable' },
    recorded: true,
  },
  {
    name: 'a first evaluation that finds the incident a crash left open',
    last: null,
    evaluation: { ...okAt(T1), outcome: 'unchanged', conditionMet: true, incidentId: INCIDENT },
    recorded: true,
  },
  {
    name: 'a first evaluation inside a maintenance window',
    last: null,
    evaluation: { ...okAt(T1), outcome: 'silenced', windowId: INCIDENT },
    recorded: true,
  },
  {
    name: 'a quiet first evaluation of a rule disarmed by a manual resolve (it re-arms)',
    last: null,
    watch: { ...initialRuleWatch(), rearmed: false },
    evaluation: okAt(T1),
    recorded: true,
  },
  { name: 'ok after ok, a minute later', last: okAt(T0), evaluation: okAt(T1), recorded: false },
  {
    name: 'pending after pending (the clock already runs)',
    last: { ...okAt(T0), outcome: 'pending', conditionMet: true },
    watch: pendingWatch,
    evaluation: { ...okAt(T1), outcome: 'pending', conditionMet: true },
    recorded: false,
  },
  {
    name: 'pending after ok',
    last: okAt(T0),
    evaluation: { ...okAt(T1), outcome: 'pending', conditionMet: true },
    recorded: true,
  },
  {
    name: 'pending after pending whose clock an edit reset (the watch changes)',
    last: { ...okAt(T0), outcome: 'pending', conditionMet: true },
    watch: initialRuleWatch(),
    evaluation: { ...okAt(T1), outcome: 'pending', conditionMet: true },
    recorded: true,
  },
  {
    name: 'unchanged after unchanged, same incident',
    last: { ...okAt(T0), outcome: 'unchanged', conditionMet: true, incidentId: INCIDENT },
    evaluation: { ...okAt(T1), outcome: 'unchanged', conditionMet: true, incidentId: INCIDENT },
    recorded: false,
  },
  {
    name: 'unchanged after a manual resolve (the incident is gone)',
    last: { ...okAt(T0), outcome: 'unchanged', conditionMet: true, incidentId: INCIDENT },
    watch: { ...initialRuleWatch(), rearmed: false },
    evaluation: { ...okAt(T1), outcome: 'unchanged', conditionMet: true, incidentId: null },
    recorded: true,
  },
  {
    name: 'ok after a manual resolve re-arms the rule',
    last: okAt(T0),
    watch: { ...initialRuleWatch(), rearmed: false },
    evaluation: okAt(T1),
    recorded: true,
  },
  {
    name: 'the same error again',
    last: { ...okAt(T0), outcome: 'error', conditionMet: null, error: 'warehouse unavailable' },
    watch: failingWatch,
    evaluation: { ...okAt(T1), outcome: 'error', conditionMet: null, error: 'warehouse unavailable' },
    recorded: false,
  },
  {
    name: 'another error',
    last: { ...okAt(T0), outcome: 'error', conditionMet: null, error: 'warehouse unavailable' },
    watch: failingWatch,
    evaluation: { ...okAt(T1), outcome: 'error', conditionMet: null, error: 'unknown cluster' },
    recorded: true,
  },
];

for (const c of cases) {
  test(`recorded: ${c.recorded ? 'yes' : 'no'}, ${c.name}`, (t) => {
    t.is(
      shouldRecordEvaluation({
        ruleId: RULE,
        since: T0,
        last: c.last,
        watch: c.watch ?? initialRuleWatch(),
        evaluation: c.evaluation,
      }),
      c.recorded,
    );
  });
}

test('a quiet rule is recorded once an hour, at its own offset in the hour', (t) => {
  const offset = heartbeatOffsetMs(RULE);
  t.true(offset >= 0 && offset < HISTORY_HEARTBEAT_MS);
  // The rule's hour turns at hourStart; ticks one minute apart around it.
  const hourStart =
    Date.parse('2026-11-20T12:00:00.000Z') -
    (Date.parse('2026-11-20T12:00:00.000Z') % HISTORY_HEARTBEAT_MS) +
    offset +
    HISTORY_HEARTBEAT_MS;
  const at = (ms: number) => new Date(ms).toISOString();
  const record = (last: number, now: number) =>
    shouldRecordEvaluation({
      ruleId: RULE,
      since: T0,
      last: okAt(at(last)),
      watch: initialRuleWatch(),
      evaluation: okAt(at(now)),
    });
  t.false(record(hourStart - 30 * 60_000, hourStart - 1), 'within the same hour of the rule');
  t.true(record(hourStart - 30 * 60_000, hourStart), 'the hour turned');
  t.false(record(hourStart, hourStart + 59 * 60_000), 'an hour of quiet ticks after the heartbeat');
});

test('a quiet rule with nothing recorded is first recorded when its hour turns after its creation', (t) => {
  const offset = heartbeatOffsetMs(RULE);
  const created = Date.parse('2026-11-20T12:00:00.000Z');
  const hourStart = created - (created % HISTORY_HEARTBEAT_MS) + offset + HISTORY_HEARTBEAT_MS;
  const at = (ms: number) => new Date(ms).toISOString();
  const record = (since: number, now: number) =>
    shouldRecordEvaluation({
      ruleId: RULE,
      since: at(since),
      last: null,
      watch: initialRuleWatch(),
      evaluation: okAt(at(now)),
    });
  t.false(record(hourStart - 30 * 60_000, hourStart - 1), 'created within the same hour of the rule');
  t.true(record(hourStart - 30 * 60_000, hourStart), 'the hour turned since it was created');
  t.true(record(hourStart - 3 * HISTORY_HEARTBEAT_MS, hourStart - 1), 'created hours ago and never recorded');
});

test('the offsets of many rules spread over the hour', (t) => {
  const minutes = new Set<number>();
  for (let i = 0; i < 2000; i++) minutes.add(Math.floor(heartbeatOffsetMs(`rule-${i}`) / 60_000));
  t.is(minutes.size, 60, 'every minute of the hour takes some rules');
});
