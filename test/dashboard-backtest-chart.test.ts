/**
 * The rule backtest chart's geometry (src/dashboard/web/backtest-chart.ts), table-driven: where the
 * threshold, the incident and gap spans and the line fall in the viewBox, that a gap lifts the pen,
 * that a month of one-minute readings folds into at most two points per column, and that a span too
 * narrow to see is widened.
 */
import test from 'ava';
import { backtestChart, MARGIN, MIN_SPAN, type ChartInput } from '../src/dashboard/web/backtest-chart.js';

const MIN = 60_000;
// A plot 100 units wide and 100 high: x = 48 + minutes, y = 108 - value (values 0..100 padded 5%).
const base: ChartInput = {
  since: 0,
  until: 100 * MIN,
  readings: [],
  threshold: 50,
  incidents: [],
  gaps: [],
  width: 100 + MARGIN.left + MARGIN.right,
  height: 100 + MARGIN.top + MARGIN.bottom,
};
const series = (values: (number | null)[]) => values.map((value, i) => ({ at: i * MIN, value }));
const moves = (line: string) => (line.match(/M/g) ?? []).length;

const cases: [string, Partial<ChartInput>, (g: ReturnType<typeof backtestChart>) => unknown, unknown][] = [
  [
    'the threshold halfway between the lowest and highest value',
    { readings: series([0, 100]) },
    (g) => g.thresholdY,
    58,
  ],
  [
    'the value range is the readings and the threshold, padded 5%',
    { readings: series([0, 100]), threshold: 50 },
    (g) => [g.low, g.high],
    [-5, 105],
  ],
  [
    'a threshold above every reading widens the range to it',
    { readings: series([0, 10]), threshold: 100 },
    (g) => g.high,
    105,
  ],
  [
    'one flat value and the threshold equal: a range around it',
    { readings: series([5, 5]), threshold: 5 },
    (g) => [g.low, g.high],
    [4.5, 5.5],
  ],
  [
    'an incident from minute 10 to 30',
    { incidents: [{ start: 10 * MIN, end: 30 * MIN }] },
    (g) => g.incidents,
    [{ x: 58, width: 20 }],
  ],
  [
    'an incident still open runs to the end',
    { incidents: [{ start: 90 * MIN, end: null }] },
    (g) => g.incidents,
    [{ x: 138, width: 10 }],
  ],
  [
    'a one-minute incident at the very end is widened and kept inside',
    { incidents: [{ start: 100 * MIN, end: 100 * MIN }] },
    (g) => g.incidents,
    [{ x: 148 - MIN_SPAN, width: MIN_SPAN }],
  ],
  ['a gap from minute 40 to 60', { gaps: [{ from: 40 * MIN, to: 60 * MIN }] }, (g) => g.gaps, [{ x: 88, width: 20 }]],
  [
    'readings before and after a gap: two strokes',
    { readings: series([10, 20, null, null, 30, 40]) },
    (g) => moves(g.line),
    2,
  ],
  ['no gap: one stroke', { readings: series([10, 20, 30, 40]) }, (g) => moves(g.line), 1],
  ['no readings: no line', { readings: [] }, (g) => g.line, ''],
  [
    'a month of one-minute readings: at most two points per column',
    {
      since: 0,
      until: 31 * 1440 * MIN,
      readings: Array.from({ length: 31 * 1440 + 1 }, (_, i) => ({ at: i * MIN, value: i % 97 })),
    },
    (g) => g.line.split(/[ML]/).filter((p) => p.trim() !== '').length <= 2 * 100,
    true,
  ],
  // 1,000 readings in 100 columns; the one reading of 100 is drawn at y = 108 - (105 / 110) * 100.
  [
    'a spike inside a column is kept as its highest point',
    {
      since: 0,
      until: 1000 * MIN,
      readings: Array.from({ length: 1001 }, (_, i) => ({ at: i * MIN, value: i === 503 ? 100 : 0 })),
    },
    (g) =>
      Math.min(
        ...g.line
          .split(/[ML]/)
          .filter((p) => p.trim() !== '')
          .map((p) => Number(p.trim().split(' ')[1])),
      ),
    12.5,
  ],
];

for (const [name, input, pick, expected] of cases) {
  test(name, (t) => {
    t.deepEqual(pick(backtestChart({ ...base, ...input })), expected);
  });
}
