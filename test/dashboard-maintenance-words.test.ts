/**
 * The Maintenance page's words (src/dashboard/web/maintenance-words.ts) and its form's body
 * (components/maintenance-form.ts), table-driven: a window's state, when it applies, what it
 * matches with rule names, whether it matches a rule as the API decides, and the list's order.
 */
import test from 'ava';
import type { MaintenanceWindow, WindowMatcher } from '../src/dashboard/web/api/types.js';
import { bodyOf, windowForm } from '../src/dashboard/web/components/maintenance-form.js';
import {
  historyWords,
  matchesRule,
  matchWords,
  minutesWords,
  silencingWindow,
  stateWords,
  whenWords,
  windowOrder,
  windowState,
} from '../src/dashboard/web/maintenance-words.js';

const iso = (at: string) => at;
const matcher = (change: Partial<WindowMatcher>): WindowMatcher => ({
  all_rules: false,
  rule_ids: [],
  cluster_ids: [],
  severities: [],
  ...change,
});
const window = (change: Partial<MaintenanceWindow>): MaintenanceWindow => ({
  id: 'w',
  tenant_id: 't',
  name: 'W',
  reason: 'r',
  matcher: matcher({ all_rules: true }),
  starts_at: '2026-03-28T22:00:00Z',
  ends_at: '2026-03-29T04:00:00Z',
  recurrence: null,
  active: false,
  current_occurrence: null,
  next_change_at: null,
  ended_at: null,
  ended_by: null,
  created_at: '2026-03-01T00:00:00Z',
  created_by: 'u',
  updated_at: '2026-03-01T00:00:00Z',
  ...change,
});
const weekly = (days: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[], minutes: number) =>
  window({
    starts_at: null,
    ends_at: null,
    recurrence: { days, start_time: '02:00', duration_minutes: minutes, time_zone: 'Europe/Berlin' },
  });

const STATES: [string, Partial<MaintenanceWindow>, string][] = [
  [
    'active until its next change',
    { active: true, next_change_at: '2026-03-29T04:00:00Z' },
    'active now, until 2026-03-29T04:00:00Z',
  ],
  ['upcoming with its next start', { next_change_at: '2026-03-28T22:00:00Z' }, 'upcoming, starts 2026-03-28T22:00:00Z'],
  ['over: ended at its own end', {}, 'ended 2026-03-29T04:00:00Z'],
  [
    'ended early, though a weekly one would come again',
    { ...weekly(['sun'], 60), ended_at: '2026-03-20T10:00:00Z', next_change_at: null },
    'ended 2026-03-20T10:00:00Z',
  ],
];
for (const [name, change, words] of STATES)
  test(`state: ${name}`, (t) => t.is(stateWords(windowState(window(change)), iso), words));

const WHEN: [string, MaintenanceWindow, string][] = [
  ['one interval', window({}), '2026-03-28T22:00:00Z → 2026-03-29T04:00:00Z'],
  ['weekly, days in week order', weekly(['wed', 'mon'], 120), 'every Mon, Wed at 02:00 Europe/Berlin for 2 h'],
  [
    'every day, hours and minutes',
    weekly(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], 90),
    'every day at 02:00 Europe/Berlin for 1 h 30 min',
  ],
];
for (const [name, given, words] of WHEN) test(`when: ${name}`, (t) => t.is(whenWords(given, iso), words));

test('minutes in words', (t) =>
  t.deepEqual([45, 60, 90, 180, 10080].map(minutesWords), ['45 min', '1 h', '1 h 30 min', '3 h', '168 h']));

const NAMES = new Map([
  ['r1', 'Disk full'],
  ['r2', 'Queue wait'],
]);
const MATCHES: [string, WindowMatcher, string][] = [
  ['every rule', matcher({ all_rules: true }), 'every alert rule'],
  ['one rule by name', matcher({ rule_ids: ['r1'] }), 'rule “Disk full”'],
  [
    'rules by name, one deleted',
    matcher({ rule_ids: ['r1', 'r2', 'gone'] }),
    'rules “Disk full”, “Queue wait” or a deleted rule',
  ],
  [
    'clusters and severities',
    matcher({ cluster_ids: ['prod-east'], severities: ['low', 'medium'] }),
    'rules on cluster prod-east of severity low or medium',
  ],
  [
    'a rule on clusters',
    matcher({ rule_ids: ['r2'], cluster_ids: ['a', 'b'] }),
    'rule “Queue wait” on clusters a or b',
  ],
];
for (const [name, given, words] of MATCHES) test(`matches: ${name}`, (t) => t.is(matchWords(given, NAMES), words));

const RULE = { id: 'r1', cluster_id: 'prod-east', severity: 'high' as const };
const MATCHING: [string, WindowMatcher, typeof RULE | { id: string; cluster_id: null; severity: 'high' }, boolean][] = [
  ['all rules', matcher({ all_rules: true }), RULE, true],
  ['its id', matcher({ rule_ids: ['r1'] }), RULE, true],
  ['another id', matcher({ rule_ids: ['r2'] }), RULE, false],
  [
    'every list given holds',
    matcher({ rule_ids: ['r1'], cluster_ids: ['prod-east'], severities: ['high'] }),
    RULE,
    true,
  ],
  ['one list given does not', matcher({ rule_ids: ['r1'], severities: ['low'] }), RULE, false],
  [
    'a cluster list, a rule without a cluster',
    matcher({ cluster_ids: ['prod-east'] }),
    { ...RULE, cluster_id: null },
    false,
  ],
  ['an empty matcher matches nothing', matcher({}), RULE, false],
];
for (const [name, given, rule, expected] of MATCHING)
  test(`matching: ${name}`, (t) => t.is(matchesRule(given, rule), expected));

test('a rule is silenced by the first active window matching it', (t) => {
  const windows = [
    window({ name: 'inactive', active: false }),
    window({ name: 'other rule', active: true, matcher: matcher({ rule_ids: ['r2'] }) }),
    window({ name: 'Resize', active: true }),
  ];
  t.is(silencingWindow(windows, RULE)?.name, 'Resize');
  t.is(silencingWindow(windows.slice(0, 2), RULE), undefined);
});

test('the list: active first, then upcoming soonest first, then ended latest first', (t) => {
  const listed = [
    window({ name: 'ended long ago', ends_at: '2026-01-01T00:00:00Z' }),
    window({ name: 'upcoming later', next_change_at: '2026-05-01T00:00:00Z' }),
    window({ name: 'active', active: true, next_change_at: '2026-04-01T00:00:00Z' }),
    window({ name: 'ended lately', ended_at: '2026-03-30T00:00:00Z' }),
    window({ name: 'upcoming sooner', next_change_at: '2026-04-02T00:00:00Z' }),
  ].sort(windowOrder);
  t.deepEqual(
    listed.map((w) => w.name),
    ['active', 'upcoming sooner', 'upcoming later', 'ended lately', 'ended long ago'],
  );
});

test('the form: one interval is sent as instants, a weekly one as its wall clock and zone', (t) => {
  const now = Date.parse('2026-03-28T10:00:00Z');
  const once = { ...windowForm('Europe/Berlin', now), name: 'Resize', reason: 'elastic', ruleIds: ['r1'] };
  t.deepEqual(bodyOf(once), {
    name: 'Resize',
    reason: 'elastic',
    matcher: matcher({ rule_ids: ['r1'] }),
    starts_at: new Date(once.startsAt).toISOString(),
    ends_at: new Date(once.endsAt).toISOString(),
  });
  t.is(
    Date.parse(bodyOf(once).ends_at!) - Date.parse(bodyOf(once).starts_at!),
    3_600_000,
    'a new window lasts an hour from now',
  );
  const sunday = {
    ...once,
    allRules: true,
    timing: 'weekly' as const,
    days: ['sun' as const],
    startTime: '02:30',
    durationMinutes: '180',
  };
  t.deepEqual(
    bodyOf(sunday),
    {
      name: 'Resize',
      reason: 'elastic',
      matcher: matcher({ all_rules: true }),
      recurrence: { days: ['sun'], start_time: '02:30', duration_minutes: 180, time_zone: 'Europe/Berlin' },
    },
    'all rules drops the lists ticked before',
  );
  t.is(
    bodyOf({ ...sunday, durationMinutes: 'two' }).recurrence?.duration_minutes as unknown,
    'two',
    'a duration that is no number goes as typed, for the API to name',
  );
  t.false('starts_at' in bodyOf({ ...once, startsAt: '' }), 'an empty start is left out, for the API to ask for');
});

const HISTORY: [string, string][] = [
  ['MaintenanceWindowCreated', 'created by user:ada at 2026-03-01T00:00:00Z'],
  ['MaintenanceWindowUpdated', 'changed by user:ada at 2026-03-01T00:00:00Z'],
  ['MaintenanceWindowEnded', 'ended early by user:ada at 2026-03-01T00:00:00Z'],
  ['MaintenanceWindowDeleted', 'deleted by user:ada at 2026-03-01T00:00:00Z'],
  ['SomethingNew', 'SomethingNew by user:ada at 2026-03-01T00:00:00Z'],
];
for (const [type, words] of HISTORY)
  test(`history: ${type}`, (t) =>
    t.is(historyWords({ type, actor: 'user:ada', occurred_at: '2026-03-01T00:00:00Z' }, iso), words));
