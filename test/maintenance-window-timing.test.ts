/**
 * The pure window math (src/events/maintenance-window-timing.ts), table-driven: one-off intervals,
 * weekly windows in Europe/Berlin across both DST changes of 2026 (last Sunday of March, 29 March:
 * 02:00 CET → 03:00 CEST; last Sunday of October, 25 October: 03:00 CEST → 02:00 CET), ended
 * windows, next boundaries, matchers, and the escalation hold decision built on them.
 */
import test from 'ava';
import type { WindowMatcher, WindowTiming } from '../src/events/maintenance-window.js';
import {
  activeOccurrence,
  indexWindows,
  isWindowActive,
  matchingWindow,
  nextBoundary,
  windowMatchesRule,
  type TimedWindow,
} from '../src/events/maintenance-window-timing.js';
import { decideHold } from '../src/process/escalation/escalation-hold.js';

const at = (iso: string) => Date.parse(iso);
/** Created long before any instant below, unless a case says otherwise. */
const LONG_AGO = '2020-01-01T00:00:00.000Z';
const once = (startsAt: string, endsAt: string, endedAt: string | null = null, createdAt = LONG_AGO): TimedWindow => ({
  timing: { kind: 'once', startsAt, endsAt },
  createdAt,
  endedAt,
});
const weekly = (
  timing: Omit<Extract<WindowTiming, { kind: 'weekly' }>, 'kind'>,
  endedAt: string | null = null,
  createdAt = LONG_AGO,
): TimedWindow => ({ timing: { kind: 'weekly', ...timing }, createdAt, endedAt });

/** Sundays 01:30 Berlin for 2 hours: across the spring-forward it lasts 2 real hours, 01:30 CET → 04:30 CEST. */
const sundayNight = weekly({ days: ['sun'], startTime: '01:30', durationMinutes: 120, timeZone: 'Europe/Berlin' });
/** Sundays 02:30 Berlin for 1 hour: on 29 March 02:30 does not exist (→ 03:30 CEST); on 25 October it exists twice (→ the first, CEST). */
const ambiguous = weekly({ days: ['sun'], startTime: '02:30', durationMinutes: 60, timeZone: 'Europe/Berlin' });
/** Weekdays 09:00–17:00 Berlin. */
const office = weekly({
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  startTime: '09:00',
  durationMinutes: 480,
  timeZone: 'Europe/Berlin',
});

const activeCases: [string, TimedWindow, string, boolean][] = [
  [
    'one-off: before its start',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'),
    '2026-05-01T09:59:59.999Z',
    false,
  ],
  ['one-off: at its start', once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'), '2026-05-01T10:00:00Z', true],
  [
    'one-off: at its end (half-open)',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'),
    '2026-05-01T12:00:00Z',
    false,
  ],
  [
    'one-off ended early: after the end',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', '2026-05-01T11:00:00Z'),
    '2026-05-01T11:00:00Z',
    false,
  ],
  [
    'one-off ended early: before the end',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', '2026-05-01T11:00:00Z'),
    '2026-05-01T10:59:00Z',
    true,
  ],
  ['weekly, winter: Sunday 01:30 CET is 00:30Z', sundayNight, '2026-03-22T00:30:00Z', true],
  ['weekly, winter: just before', sundayNight, '2026-03-22T00:29:59Z', false],
  ['weekly, spring-forward day: starts 01:30 CET (00:30Z)', sundayNight, '2026-03-29T00:30:00Z', true],
  ['weekly, spring-forward day: 2 real hours, until 02:30Z (04:30 CEST)', sundayNight, '2026-03-29T02:29:59Z', true],
  ['weekly, spring-forward day: over at 02:30Z', sundayNight, '2026-03-29T02:30:00Z', false],
  ['weekly, summer: Sunday 01:30 CEST is 23:30Z on Saturday', sundayNight, '2026-04-04T23:30:00Z', true],
  ['weekly, summer: 00:30Z is inside (02:30 CEST)', sundayNight, '2026-04-05T00:30:00Z', true],
  ['weekly, summer: over at 01:30Z', sundayNight, '2026-04-05T01:30:00Z', false],
  ['skipped start: 02:30 on 29 March reads as 03:30 CEST (01:30Z)', ambiguous, '2026-03-29T01:30:00Z', true],
  ['skipped start: not before', ambiguous, '2026-03-29T01:29:59Z', false],
  ['repeated start: 02:30 on 25 October is the first, CEST (00:30Z)', ambiguous, '2026-10-25T00:30:00Z', true],
  ['repeated start: an hour later (the second 02:30, CET) it is over', ambiguous, '2026-10-25T01:30:00Z', false],
  ['after the fall-back: 02:30 CET is 01:30Z', ambiguous, '2026-11-01T01:30:00Z', true],
  ['office hours: Monday 09:00 CEST is 07:00Z', office, '2026-06-01T07:00:00Z', true],
  ['office hours: Saturday is not a day of it', office, '2026-06-06T10:00:00Z', false],
  ['office hours: Monday 09:00 CET is 08:00Z', office, '2026-11-02T07:59:00Z', false],
  // Issue 36 item 8: a window silences only from its creation, whatever its timing says of the time before.
  [
    'one-off created after its start: not active before its creation',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', null, '2026-05-01T11:00:00Z'),
    '2026-05-01T10:30:00Z',
    false,
  ],
  [
    'one-off created after its start: active from its creation',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', null, '2026-05-01T11:00:00Z'),
    '2026-05-01T11:00:00Z',
    true,
  ],
  [
    'weekly created mid-week: not the occurrence of the week before',
    weekly({ days: ['mon'], startTime: '09:00', durationMinutes: 60, timeZone: 'UTC' }, null, '2026-06-03T00:00:00Z'),
    '2026-06-01T09:10:00Z',
    false,
  ],
  [
    'weekly created mid-week: the next occurrence',
    weekly({ days: ['mon'], startTime: '09:00', durationMinutes: 60, timeZone: 'UTC' }, null, '2026-06-03T00:00:00Z'),
    '2026-06-08T09:10:00Z',
    true,
  ],
  [
    'a weekly window ended early stays ended',
    weekly({ days: ['mon'], startTime: '09:00', durationMinutes: 60, timeZone: 'UTC' }, '2026-06-01T09:30:00Z'),
    '2026-06-08T09:10:00Z',
    false,
  ],
];
for (const [name, window, instant, expected] of activeCases) {
  test(`active: ${name}`, (t) => {
    t.is(isWindowActive(window, at(instant)), expected);
  });
}

const boundaryCases: [string, TimedWindow, string, string | null][] = [
  [
    'one-off, before: its start',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'),
    '2026-05-01T08:00:00Z',
    '2026-05-01T10:00:00.000Z',
  ],
  [
    'one-off, inside: its end',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'),
    '2026-05-01T11:00:00Z',
    '2026-05-01T12:00:00.000Z',
  ],
  [
    'one-off created after its start, asked before its creation: it turns active at its creation',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', null, '2026-05-01T11:00:00Z'),
    '2026-05-01T10:30:00Z',
    '2026-05-01T11:00:00.000Z',
  ],
  ['one-off, over: never again', once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'), '2026-05-01T13:00:00Z', null],
  [
    'one-off, ended early, inside: the end is the early end',
    once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', '2026-05-01T11:00:00Z'),
    '2026-05-01T10:30:00Z',
    '2026-05-01T11:00:00.000Z',
  ],
  [
    'weekly, the Saturday before the spring-forward: next start 01:30 CET',
    sundayNight,
    '2026-03-28T12:00:00Z',
    '2026-03-29T00:30:00.000Z',
  ],
  [
    'weekly, inside on the spring-forward day: 2 real hours later',
    sundayNight,
    '2026-03-29T01:00:00Z',
    '2026-03-29T02:30:00.000Z',
  ],
  [
    'weekly, the Saturday before the fall-back: next start 01:30 CEST',
    sundayNight,
    '2026-10-24T12:00:00Z',
    '2026-10-24T23:30:00.000Z',
  ],
  ['weekly, the week after the fall-back: 01:30 CET', sundayNight, '2026-10-26T12:00:00Z', '2026-11-01T00:30:00.000Z'],
  [
    'weekly, ended: never again',
    weekly({ days: ['mon'], startTime: '09:00', durationMinutes: 60, timeZone: 'UTC' }, '2026-06-01T09:30:00Z'),
    '2026-06-02T00:00:00Z',
    null,
  ],
  // Windows stored before recurrences had to leave a gap (issue 36 item 8): the stretch is followed to its real end.
  [
    'weekly, every day for a week (stored before the gap rule): active for good, no change ahead',
    weekly({
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      startTime: '00:00',
      durationMinutes: 10080,
      timeZone: 'UTC',
    }),
    '2026-06-01T12:00:00Z',
    null,
  ],
  [
    'weekly, every day for 24 h in Berlin: one stretch until the fall-back night, whose day has 25 hours',
    weekly({
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      startTime: '00:00',
      durationMinutes: 1440,
      timeZone: 'Europe/Berlin',
    }),
    '2026-06-01T12:00:00Z',
    '2026-10-25T22:00:00.000Z',
  ],
  [
    'weekly, touching occurrences are one stretch',
    weekly({ days: ['mon', 'tue'], startTime: '00:00', durationMinutes: 1440, timeZone: 'UTC' }),
    '2026-06-01T12:00:00Z',
    '2026-06-03T00:00:00.000Z',
  ],
];
for (const [name, window, instant, expected] of boundaryCases) {
  test(`next boundary: ${name}`, (t) => {
    const next = nextBoundary(window, at(instant));
    t.is(next === null ? null : new Date(next).toISOString(), expected);
  });
}

test('the occurrence active on the fall-back Sunday runs 2 real hours from 01:30 CEST', (t) => {
  t.deepEqual(activeOccurrence(sundayNight, at('2026-10-25T00:00:00Z')), {
    start: at('2026-10-24T23:30:00Z'),
    end: at('2026-10-25T01:30:00Z'),
  });
});

const RULE = { ruleId: '11111111-1111-4111-8111-111111111111', clusterId: 'prod', severity: 'high' };
const matcher = (m: Partial<WindowMatcher>): WindowMatcher => ({
  allRules: false,
  ruleIds: [],
  clusterIds: [],
  severities: [],
  ...m,
});
const matcherCases: [string, WindowMatcher, boolean][] = [
  ['all rules', matcher({ allRules: true }), true],
  ['its rule id', matcher({ ruleIds: [RULE.ruleId] }), true],
  ['another rule id', matcher({ ruleIds: ['22222222-2222-4222-8222-222222222222'] }), false],
  ['its cluster', matcher({ clusterIds: ['prod', 'dev'] }), true],
  ['another cluster', matcher({ clusterIds: ['dev'] }), false],
  ['its severity', matcher({ severities: ['high'] }), true],
  [
    'its cluster and another severity: every list must match',
    matcher({ clusterIds: ['prod'], severities: ['low'] }),
    false,
  ],
  ['its rule and its severity', matcher({ ruleIds: [RULE.ruleId], severities: ['high'] }), true],
  ['an empty matcher matches nothing', matcher({}), false],
];
for (const [name, m, expected] of matcherCases) {
  test(`matcher: ${name}`, (t) => {
    t.is(windowMatchesRule(m, RULE), expected);
  });
}

test('the window index finds the same window as checking every window in order', (t) => {
  const windows = matcherCases.map(([, m], i) => ({ id: String(i), matcher: m }));
  const rules = [
    RULE,
    { ...RULE, clusterId: null },
    { ...RULE, severity: 'low' },
    { ...RULE, ruleId: '22222222-2222-4222-8222-222222222222', clusterId: 'dev' },
  ];
  for (let from = 0; from < windows.length; from++) {
    const list = [...windows.slice(from), ...windows.slice(0, from)];
    const index = indexWindows(list);
    for (const rule of rules)
      t.is(matchingWindow(index, rule)?.id ?? null, list.find((w) => windowMatchesRule(w.matcher, rule))?.id ?? null);
  }
  t.is(matchingWindow(indexWindows([]), RULE), null);
});

test('a cluster matcher does not match a rule without a cluster', (t) => {
  t.false(windowMatchesRule(matcher({ clusterIds: ['prod'] }), { ...RULE, clusterId: null }));
});

const W = '33333333-3333-4333-8333-333333333333';
const holding = {
  id: W,
  matcher: matcher({ allRules: true }),
  ...once('2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z'),
};
const holdCases: [string, Parameters<typeof decideHold>[0], ReturnType<typeof decideHold>][] = [
  [
    'not held, window active, a stage remaining → hold',
    { incident: RULE, heldBy: null, stageRemaining: true, windows: [holding], now: at('2026-05-01T11:00:00Z') },
    { action: 'hold', windowId: W },
  ],
  [
    'not held, window active, nothing remaining → nothing, look again at its end',
    { incident: RULE, heldBy: null, stageRemaining: false, windows: [holding], now: at('2026-05-01T11:00:00Z') },
    { action: 'none', lookAgainAt: at('2026-05-01T12:00:00Z') },
  ],
  [
    'held, window still active → nothing until its end',
    { incident: RULE, heldBy: W, stageRemaining: true, windows: [holding], now: at('2026-05-01T11:00:00Z') },
    { action: 'none', lookAgainAt: at('2026-05-01T12:00:00Z') },
  ],
  [
    'held, window over → resume',
    { incident: RULE, heldBy: W, stageRemaining: true, windows: [holding], now: at('2026-05-01T12:00:00Z') },
    { action: 'resume', windowId: W },
  ],
  [
    'held, window gone (deleted) → resume',
    { incident: RULE, heldBy: W, stageRemaining: true, windows: [], now: at('2026-05-01T11:00:00Z') },
    { action: 'resume', windowId: W },
  ],
  [
    'not held, window ahead → look again at its start',
    { incident: RULE, heldBy: null, stageRemaining: true, windows: [holding], now: at('2026-05-01T09:00:00Z') },
    { action: 'none', lookAgainAt: at('2026-05-01T10:00:00Z') },
  ],
  [
    'not held, a window of other rules → nothing',
    {
      incident: RULE,
      heldBy: null,
      stageRemaining: true,
      windows: [{ ...holding, matcher: matcher({ severities: ['low'] }) }],
      now: at('2026-05-01T11:00:00Z'),
    },
    { action: 'none', lookAgainAt: null },
  ],
];
for (const [name, input, expected] of holdCases) {
  test(`escalation hold: ${name}`, (t) => {
    t.deepEqual(decideHold(input), expected);
  });
}
