/** The maintenance window decider, given/when/then; the body schema's field checks; the evaluation's silencing. */
import test from 'ava';
import { maintenanceWindowDecider, toWindowData } from '../commands/maintenance-windows.js';
import { maintenanceWindowBodySchema } from '../src/contract/bodies/maintenance-windows.js';
import type { MaintenanceWindowData, MaintenanceWindowEvent } from '../src/events/maintenance-window.js';
import { indexWindows } from '../src/events/maintenance-window-timing.js';
import { initialRuleWatch, watchAfterEvaluation } from '../src/events/rule-evaluation.js';
import { decideEvaluation, type Maintenance, type RuleUnderEvaluation } from '../src/process/evaluation-decision.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const windowId = '44444444-4444-4444-8444-444444444444';
const window: MaintenanceWindowData = {
  windowId,
  name: 'Resize',
  reason: 'elastic resize of prod',
  matcher: { allRules: false, ruleIds: [], clusterIds: ['prod'], severities: [] },
  timing: { kind: 'once', startsAt: '2026-03-01T12:00:00.000Z', endsAt: '2026-03-01T14:00:00.000Z' },
};
const created: MaintenanceWindowEvent = { type: 'MaintenanceWindowCreated', data: window };
const ended: MaintenanceWindowEvent = {
  type: 'MaintenanceWindowEnded',
  data: { windowId, endedAt: TEST_CONTEXT.now.toISOString() },
};
const deleted: MaintenanceWindowEvent = { type: 'MaintenanceWindowDeleted', data: { windowId } };

test('create records the whole window; creating it again is a conflict', (t) => {
  deciderSpec(t, maintenanceWindowDecider).given([]).when({ kind: 'CreateMaintenanceWindow', window }).then([created]);
  deciderSpec(t, maintenanceWindowDecider)
    .given([created])
    .when({ kind: 'CreateMaintenanceWindow', window })
    .thenRejects('conflict');
});

test('update replaces the window', (t) => {
  const edited = { ...window, reason: 'resize, second attempt' };
  deciderSpec(t, maintenanceWindowDecider)
    .given([created])
    .when({ kind: 'UpdateMaintenanceWindow', window: edited })
    .then([{ type: 'MaintenanceWindowUpdated', data: edited }]);
});

test('end records the decision instant; a second end changes nothing', (t) => {
  deciderSpec(t, maintenanceWindowDecider)
    .given([created])
    .when({ kind: 'EndMaintenanceWindow', windowId })
    .then([ended]);
  deciderSpec(t, maintenanceWindowDecider)
    .given([created, ended])
    .when({ kind: 'EndMaintenanceWindow', windowId })
    .then([]);
});

test('an ended window cannot be edited back to life', (t) => {
  deciderSpec(t, maintenanceWindowDecider)
    .given([created, ended])
    .when({ kind: 'UpdateMaintenanceWindow', window })
    .thenRejects('conflict', /ended/);
});

test('a deleted or never-created window is not found for update, end and delete', (t) => {
  for (const given of [[], [created, deleted]]) {
    deciderSpec(t, maintenanceWindowDecider)
      .given(given)
      .when({ kind: 'UpdateMaintenanceWindow', window })
      .thenRejects('not_found');
    deciderSpec(t, maintenanceWindowDecider)
      .given(given)
      .when({ kind: 'EndMaintenanceWindow', windowId })
      .thenRejects('not_found');
    deciderSpec(t, maintenanceWindowDecider)
      .given(given)
      .when({ kind: 'DeleteMaintenanceWindow', windowId })
      .thenRejects('not_found');
  }
  deciderSpec(t, maintenanceWindowDecider)
    .given([created])
    .when({ kind: 'DeleteMaintenanceWindow', windowId })
    .then([deleted]);
});

const body = {
  name: 'Resize',
  reason: 'resize',
  matcher: { cluster_ids: ['prod'] },
  starts_at: '2026-03-01T12:00:00Z',
  ends_at: '2026-03-01T14:00:00+00:00',
};
const fieldsOf = (input: unknown) => {
  const parsed = maintenanceWindowBodySchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('/'));
};
/**
 * Issue 36 item 8: every occurrence must end before the next one starts (duration shorter than the
 * shortest run of whole days between two consecutive start days), else the window never turns off.
 */
function recurrenceGapCases(): [string, unknown, string[]][] {
  const every = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const weekly = (days: string[], minutes: number) => ({
    name: 'x',
    reason: 'y',
    matcher: { all_rules: true },
    recurrence: { days, start_time: '02:00', duration_minutes: minutes, time_zone: 'UTC' },
  });
  const refused = ['recurrence/duration_minutes'];
  return [
    ["every day for a whole week (the issue's window: active for ever)", weekly(every, 10080), refused],
    ['every day for 24 hours: each ends as the next starts', weekly(every, 1440), refused],
    ['every day for 23 h 59 min', weekly(every, 1439), []],
    ["one day a week for a whole week: ends as the next week's starts", weekly(['sun'], 10080), refused],
    ['one day a week for 6 d 23 h 59 min', weekly(['sun'], 10079), []],
    ['Monday and Tuesday for a day', weekly(['mon', 'tue'], 1440), refused],
    ['Monday and Wednesday for 2 days', weekly(['wed', 'mon'], 2880), refused],
    ['Monday and Wednesday for a minute under 2 days', weekly(['mon', 'wed'], 2879), []],
    ["Saturday and Monday: the shortest gap wraps over the week's end (2 days)", weekly(['sat', 'mon'], 2880), refused],
    ['Saturday and Monday for a minute under 2 days', weekly(['sat', 'mon'], 2879), []],
  ];
}

const schemaCases: [string, unknown, string[]][] = [
  ['a valid interval', body, []],
  ['ending before it starts', { ...body, ends_at: '2026-03-01T11:00:00Z' }, ['ends_at']],
  ['ending as it starts', { ...body, ends_at: body.starts_at }, ['ends_at']],
  ['longer than 30 days', { ...body, ends_at: '2026-04-01T12:00:00Z' }, ['ends_at']],
  ['exactly 30 days', { ...body, ends_at: '2026-03-31T12:00:00Z' }, []],
  ['no timing', { name: 'x', reason: 'y', matcher: { all_rules: true } }, ['starts_at', 'ends_at']],
  [
    'both an interval and a recurrence',
    { ...body, recurrence: { days: ['sun'], start_time: '02:00', duration_minutes: 60, time_zone: 'Europe/Berlin' } },
    ['recurrence'],
  ],
  [
    'a weekly recurrence',
    {
      name: 'x',
      reason: 'y',
      matcher: { all_rules: true },
      recurrence: { days: ['sun'], start_time: '02:00', duration_minutes: 60, time_zone: 'Europe/Berlin' },
    },
    [],
  ],
  [
    'a recurrence in an unknown zone',
    {
      name: 'x',
      reason: 'y',
      matcher: { all_rules: true },
      recurrence: { days: ['sun'], start_time: '02:00', duration_minutes: 60, time_zone: 'Mars/Olympus' },
    },
    ['recurrence/time_zone'],
  ],
  [
    'a recurrence at 24:00',
    {
      name: 'x',
      reason: 'y',
      matcher: { all_rules: true },
      recurrence: { days: ['sun'], start_time: '24:00', duration_minutes: 60, time_zone: 'UTC' },
    },
    ['recurrence/start_time'],
  ],
  ...recurrenceGapCases(),
  ['an empty matcher', { ...body, matcher: {} }, ['matcher/all_rules']],
  ['all rules and a list', { ...body, matcher: { all_rules: true, severities: ['low'] } }, ['matcher/all_rules']],
];
for (const [name, input, fields] of schemaCases) {
  test(`body: ${name}`, (t) => {
    t.deepEqual(fieldsOf(input), fields);
  });
}

test('a body becomes event data with instants in UTC', (t) => {
  const data = toWindowData(
    windowId,
    maintenanceWindowBodySchema.parse({ ...body, starts_at: '2026-03-01T13:00:00+01:00' }),
  );
  t.deepEqual(data.timing, { kind: 'once', startsAt: '2026-03-01T12:00:00.000Z', endsAt: '2026-03-01T14:00:00.000Z' });
  t.deepEqual(data.matcher, { allRules: false, ruleIds: [], clusterIds: ['prod'], severities: [] });
});

const ruleId = '11111111-1111-4111-8111-111111111111';
const rule: RuleUnderEvaluation = {
  condition: 'gt',
  threshold: 30,
  windowMinutes: 5,
  hasActiveIncident: false,
  pendingSince: null,
  rearmed: true,
};
const covering: Maintenance = {
  rule: { ruleId, clusterId: 'prod', severity: 'high' },
  windows: indexWindows([{ id: windowId, matcher: window.matcher }]),
};
const elsewhere: Maintenance = {
  ...covering,
  windows: indexWindows([{ id: windowId, matcher: { ...window.matcher, clusterIds: ['dev'] } }]),
};
const now = new Date('2026-03-01T13:00:00Z');
const decisionCases: [string, RuleUnderEvaluation, number | null, Maintenance | undefined, Record<string, unknown>][] =
  [
    [
      'breaching, window full, covered → silenced, nothing opens',
      { ...rule, pendingSince: '2026-03-01T12:00:00Z' },
      45,
      covering,
      { outcome: 'silenced', action: 'none', windowId, conditionMet: true },
    ],
    [
      'breaching, window full, a window of other rules → triggered',
      { ...rule, pendingSince: '2026-03-01T12:00:00Z' },
      45,
      elsewhere,
      { outcome: 'triggered', action: 'trigger' },
    ],
    [
      'breaching, window full, no windows → triggered',
      { ...rule, pendingSince: '2026-03-01T12:00:00Z' },
      45,
      undefined,
      { outcome: 'triggered' },
    ],
    [
      'clear, covered → silenced (all clear is silenced too)',
      rule,
      10,
      covering,
      { outcome: 'silenced', conditionMet: false },
    ],
    [
      'clear with an open incident, covered → still resolved',
      { ...rule, hasActiveIncident: true },
      10,
      covering,
      { outcome: 'resolved', action: 'resolve' },
    ],
    [
      'breaching with an open incident, covered → silenced',
      { ...rule, hasActiveIncident: true },
      45,
      covering,
      { outcome: 'silenced', conditionMet: true },
    ],
    ['unreadable metric, covered → still an error', rule, null, covering, { outcome: 'error' }],
  ];
for (const [name, under, value, maintenance, expected] of decisionCases) {
  test(`evaluation: ${name}`, (t) => {
    t.like(
      decideEvaluation(under, value === null ? { ok: false, error: 'down' } : { ok: true, value }, now, maintenance),
      expected as never,
    );
  });
}

test('timeline: silenced while breaching keeps the pending clock, so the first evaluation after the window triggers', (t) => {
  let watch = initialRuleWatch();
  const minute = (m: number) => new Date(Date.parse('2026-03-01T12:00:00Z') + m * 60_000);
  const outcomes: string[] = [];
  for (let m = 0; m <= 10; m++) {
    const windows = m < 10 ? covering : undefined; // the window ends at minute 10
    const decision = decideEvaluation(
      { ...rule, pendingSince: watch.pendingSince, rearmed: watch.rearmed },
      { ok: true, value: 45 },
      minute(m),
      windows,
    );
    outcomes.push(decision.outcome);
    watch = watchAfterEvaluation(watch, {
      at: minute(m).toISOString(),
      outcome: decision.outcome,
      conditionMet: true,
      error: null,
      incidentId: null,
    });
  }
  t.deepEqual(outcomes, [...Array(10).fill('silenced'), 'triggered']);
  t.is(watch.pendingSince, null);
});
