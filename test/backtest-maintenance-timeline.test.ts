/**
 * The backtest's maintenance timeline and the replay deciding with it, table-driven: which windows
 * are active at ascending instants (once, weekly, ended early, not matching), and what the replay
 * then decides (silenced instants, the incident moved to the window's end).
 */
import test from 'ava';
import type { WindowMatcher } from '../src/events/maintenance-window.js';
import { maintenanceTimeline, type BacktestWindow } from '../src/backtest/maintenance-timeline.js';
import { replayInstants, replayRule } from '../src/backtest/replay.js';

const MIN = 60_000;
const T = Date.parse('2026-03-28T23:00:00Z');
const all: WindowMatcher = { allRules: true, ruleIds: [], clusterIds: [], severities: [] };
const none: WindowMatcher = { allRules: false, ruleIds: [], clusterIds: [], severities: ['low'] };
/** Created long before T, unless a case says when (minutes after T). */
const once = (
  id: string,
  from: number,
  to: number,
  endedAt: number | null = null,
  matcher = all,
  createdAt = -10_000,
): BacktestWindow => ({
  id,
  name: id,
  matcher,
  createdAt: new Date(T + createdAt * MIN).toISOString(),
  endedAt: endedAt === null ? null : new Date(endedAt).toISOString(),
  timing: {
    kind: 'once',
    startsAt: new Date(T + from * MIN).toISOString(),
    endsAt: new Date(T + to * MIN).toISOString(),
  },
});
const rule = { ruleId: 'r1', clusterId: 'c1', severity: 'high' };

const cases: [string, BacktestWindow[], number[], string[][]][] = [
  ['no windows', [], [0, 5], [[], []]],
  ['a one-off, half-open', [once('a', 2, 4)], [1, 2, 3, 4], [[], ['a'], ['a'], []]],
  ['ended early', [once('a', 2, 10, T + 3 * MIN)], [2, 3, 9], [['a'], [], []]],
  ['a window the rule does not match', [once('a', 0, 10, null, none)], [1, 5], [[], []]],
  // Issue 36 item 8: planned from minute 0, created at minute 3: live, nothing was silenced before it existed.
  [
    'created after its planned start: active only from its creation',
    [once('a', 0, 10, null, all, 3)],
    [1, 2, 3, 5],
    [[], [], ['a'], ['a']],
  ],
  ['created after its planned end: never active', [once('a', 0, 10, null, all, 12)], [1, 5, 9, 12], [[], [], [], []]],
  ['two overlapping, in list order', [once('b', 0, 3), once('a', 1, 5)], [0, 1, 3], [['b'], ['b', 'a'], ['a']]],
  // T is 00:00 in Europe/Berlin, which springs forward on 2026-03-29 at 02:00: a 01:30 start (T + 90) lasts its 60 real minutes.
  [
    'weekly over a DST change',
    [
      {
        id: 'w',
        name: 'w',
        matcher: all,
        createdAt: '2026-01-01T00:00:00.000Z',
        endedAt: null,
        timing: { kind: 'weekly', days: ['sun'], startTime: '01:30', durationMinutes: 60, timeZone: 'Europe/Berlin' },
      },
    ],
    [89, 90, 149, 150],
    [[], ['w'], ['w'], []],
  ],
];

for (const [name, windows, minutes, expected] of cases) {
  test(`timeline: ${name}`, (t) => {
    const timeline = maintenanceTimeline(windows, rule, T, T + 240 * MIN);
    const active = minutes.map((m) => {
      const maintenance = timeline.at(T + m * MIN);
      return maintenance === undefined
        ? []
        : [
            ...new Set(
              [...maintenance.windows.byKey.values()]
                .flat()
                .sort((a, b) => a.order - b.order)
                .map((c) => c.window.id),
            ),
          ];
    });
    t.deepEqual(active, expected);
  });
}

test('replay: a window over the trigger silences it; the incident opens at the first evaluation after the window', (t) => {
  const instants = replayInstants(T, T + 20 * MIN, MIN);
  const readings = instants.map((_, i) => (i >= 3 && i <= 15 ? 10 : 0));
  const replayed = { condition: 'gt' as const, threshold: 5, windowMinutes: 2 };
  const plain = replayRule(replayed, instants, readings, instants.at(-1)!);
  t.deepEqual(
    plain.incidents.map((i) => (i.startedAt - T) / MIN),
    [5],
  );
  const timeline = maintenanceTimeline([once('a', 4, 9)], rule, T, T + 20 * MIN);
  const silenced = replayRule(replayed, instants, readings, instants.at(-1)!, (at) => timeline.at(at));
  t.deepEqual(
    silenced.incidents.map((i) => [(i.startedAt - T) / MIN, (i.endedAt! - T) / MIN]),
    [[9, 16]],
  );
  t.is(silenced.silenced, 5);
  t.deepEqual([...silenced.silencedBy], [['a', 5]]);
  t.is(silenced.breaches, plain.breaches, 'a silenced evaluation still says whether it breached');
  // An incident already open when a window starts stays open and resolves when the condition clears.
  const late = maintenanceTimeline([once('a', 7, 20)], rule, T, T + 20 * MIN);
  const open = replayRule(replayed, instants, readings, instants.at(-1)!, (at) => late.at(at));
  t.deepEqual(
    open.incidents.map((i) => [(i.startedAt - T) / MIN, (i.endedAt! - T) / MIN]),
    [[5, 16]],
  );
});

test('replay: a window created after its planned start silences only the evaluations from its creation (issue 36)', (t) => {
  const instants = replayInstants(T, T + 20 * MIN, MIN);
  const readings = instants.map(() => 10);
  const replayed = { condition: 'gt' as const, threshold: 5, windowMinutes: 2 };
  // Planned for minutes [0, 20), created at minute 9: live, minutes 0 to 8 were evaluated unsilenced and an incident opened at 2.
  const timeline = maintenanceTimeline([once('a', 0, 20, null, all, 9)], rule, T, T + 20 * MIN);
  const replay = replayRule(replayed, instants, readings, instants.at(-1)!, (at) => timeline.at(at));
  t.is(replay.silenced, 11, 'minutes 9 to 19 (the window is over at 20)');
  t.deepEqual([...replay.silencedBy], [['a', 11]]);
  t.deepEqual(
    replay.incidents.map((i) => (i.startedAt - T) / MIN),
    [2],
  );
  t.deepEqual(
    timeline.spans.map((span) => [(span.start - T) / MIN, (span.end - T) / MIN]),
    [[9, 20]],
  );
});
