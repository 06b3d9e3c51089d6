/**
 * The backtest's pure parts, table-driven: the replay (the evaluator's decideEvaluation and watch
 * fold over a series, src/backtest/replay.ts) and the page count (the escalation manager's
 * nextDueStage timing, src/backtest/pages.ts). Readings are one a minute from T.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { pagesFor, type PagedPolicy } from '../src/backtest/pages.js';
import { replayInstants, replayRule, type ReplayedRule } from '../src/backtest/replay.js';

const T = Date.parse('2026-11-01T00:00:00Z');
const MIN = 60_000;
const at = (minute: number) => T + minute * MIN;
const rule = (windowMinutes: number, condition: ReplayedRule['condition'] = 'gt'): ReplayedRule => ({
  condition,
  threshold: 30,
  windowMinutes,
});
const run = (r: ReplayedRule, readings: (number | null)[]) => {
  const instants = readings.map((_, i) => at(i));
  return replayRule(r, instants, readings, at(readings.length - 1));
};
/** Incidents as `start-end` in minutes from T ('open' when still open). */
const spans = (result: ReturnType<typeof run>) =>
  result.incidents.map((i) => `${(i.startedAt - T) / MIN}-${i.endedAt === null ? 'open' : (i.endedAt - T) / MIN}`);

const replays: [
  string,
  ReplayedRule,
  (number | null)[],
  { spans: string[]; breaches: number; evaluations: number; gaps: string[]; peaks?: number[] },
][] = [
  [
    'window 0 triggers at the first breach and resolves at the first clear reading',
    rule(0),
    [10, 40, 50, 45, 20, 10],
    { spans: ['1-4'], breaches: 3, evaluations: 6, gaps: [] },
  ],
  [
    'window 3 waits three minutes of breaching readings',
    rule(3),
    [40, 40, 40, 41, 20],
    { spans: ['3-4'], breaches: 4, evaluations: 5, gaps: [] },
  ],
  [
    'a clear reading restarts the pending clock',
    rule(3),
    [40, 40, 20, 40, 40, 40, 40],
    { spans: ['6-open'], breaches: 6, evaluations: 7, gaps: [] },
  ],
  [
    'a missing reading neither resets nor advances the pending clock, and is a gap',
    rule(3),
    [40, null, null, 40, 40],
    { spans: ['3-open'], breaches: 3, evaluations: 3, gaps: ['1-3'] },
  ],
  [
    'a missing reading does not resolve an open incident',
    rule(0),
    [40, null, 40, 10],
    { spans: ['0-3'], breaches: 2, evaluations: 3, gaps: ['1-2'] },
  ],
  [
    'no history at all: no incidents, one gap over the range',
    rule(0),
    [null, null, null],
    { spans: [], breaches: 0, evaluations: 0, gaps: ['0-2'] },
  ],
  [
    'the peak is the highest reading while open (gt)',
    rule(0),
    [35, 60, 45, 10],
    { spans: ['0-3'], breaches: 3, evaluations: 4, gaps: [], peaks: [60] },
  ],
  [
    'the peak is the lowest reading while open (lt)',
    rule(0, 'lt'),
    [25, 5, 12, 40],
    { spans: ['0-3'], breaches: 3, evaluations: 4, gaps: [], peaks: [5] },
  ],
];

for (const [name, r, readings, expected] of replays) {
  test(`replay: ${name}`, (t) => {
    const result = run(r, readings);
    t.deepEqual(spans(result), expected.spans);
    t.is(result.breaches, expected.breaches);
    t.is(result.evaluations, expected.evaluations);
    t.is(result.missing, readings.filter((v) => v === null).length);
    t.deepEqual(
      result.gaps.map((g) => `${(g.from - T) / MIN}-${(g.to - T) / MIN}`),
      expected.gaps,
    );
    if (expected.peaks)
      t.deepEqual(
        result.incidents.map((i) => i.peakValue),
        expected.peaks,
      );
  });
}

test('replay instants: since, every step, until included', (t) => {
  t.deepEqual(replayInstants(at(0), at(3), MIN), [at(0), at(1), at(2), at(3)]);
  t.deepEqual(replayInstants(at(0), at(31 * 24 * 60), MIN).length, 44_641);
});

const target = () => ({ type: 'user' as const, id: randomUUID(), channels: ['email' as const] });
const policy = (delays: number[], targetsPerStage: number[], repeat = 0): PagedPolicy => ({
  stages: delays.map((delayMinutes, i) => ({
    stageOrder: i + 1,
    delayMinutes,
    targets: Array.from({ length: targetsPerStage[i]! }, target),
  })),
  repeatIntervalMinutes: repeat,
});

const pageCases: [string, PagedPolicy, number, number | null, { stagesFired: number; pages: number }][] = [
  [
    'stage 1 fires at the trigger even if the incident resolves a minute later',
    policy([0, 10], [2, 3]),
    0,
    1,
    { stagesFired: 1, pages: 2 },
  ],
  ['a stage due before the resolution fires', policy([0, 10], [2, 3]), 0, 11, { stagesFired: 2, pages: 5 }],
  [
    'a stage due at the very minute of the resolution is cancelled',
    policy([0, 10], [2, 3]),
    0,
    10,
    { stagesFired: 1, pages: 2 },
  ],
  ['later delays chain on the previous stage', policy([0, 10, 5], [1, 1, 1]), 0, 15, { stagesFired: 2, pages: 2 }],
  [
    'repeat cycles from stage 1 after repeat_interval_minutes',
    policy([0, 10], [1, 2], 30),
    0,
    45,
    { stagesFired: 3, pages: 4 },
  ],
  [
    'an incident open at the end of the range counts what was due by then, no acknowledgement stops it',
    policy([0, 10], [1, 1], 20),
    0,
    null,
    { stagesFired: 5, pages: 5 },
  ],
  ['a policy with no stages pages nobody', policy([], []), 0, 10, { stagesFired: 0, pages: 0 }],
];

for (const [name, p, start, end, expected] of pageCases) {
  test(`pages: ${name}`, (t) => {
    // The range ends at minute 60 (open incidents).
    t.deepEqual(pagesFor(p, at(start), end === null ? null : at(end), at(60)), expected);
  });
}
