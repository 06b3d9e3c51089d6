import test from 'ava';
import { solutionForEvent } from '../src/gateways/warehouse/alert-events.js';
import {
  fieldValue,
  integerOf,
  isoTimestampOf,
  numberOf,
  ResultShapeError,
  rowsFromRecords,
  textOf,
  toRedshiftTimestamp,
} from '../src/gateways/warehouse/redshift/result-rows.js';
import { pollDelays } from '../src/gateways/warehouse/redshift/statement-runner.js';
import { ghostRowsPct, needsVacuumOrAnalyze, vacuumRecommendation } from '../src/gateways/warehouse/table-health.js';

const RECOMMENDATIONS: [number, number, number, string][] = [
  // unsorted_pct, pct_ghost_rows, stats_off → recommendation
  [0, 0, 0, 'none'],
  [5, 10, 10, 'none'],
  [12, 2, 0, 'VACUUM SORT ONLY'],
  [1, 25, 0, 'VACUUM DELETE ONLY'],
  [30, 25, 0, 'VACUUM FULL'],
  [0, 0, 40, 'ANALYZE'],
  [8, 0, 15, 'VACUUM SORT ONLY + ANALYZE'],
  [30, 25, 15, 'VACUUM FULL + ANALYZE'],
];
for (const [unsorted_pct, pct_ghost_rows, stats_off, expected] of RECOMMENDATIONS) {
  test(`unsorted ${unsorted_pct}%, ghost ${pct_ghost_rows}%, stats off ${stats_off}% → ${expected}`, (t) => {
    t.is(vacuumRecommendation({ unsorted_pct, pct_ghost_rows, stats_off }), expected);
  });
}

test('a table needs attention strictly above 5% unsorted or 10% stale statistics', (t) => {
  t.false(needsVacuumOrAnalyze({ unsorted_pct: 5, stats_off: 10 }));
  t.true(needsVacuumOrAnalyze({ unsorted_pct: 5.01, stats_off: 0 }));
  t.true(needsVacuumOrAnalyze({ unsorted_pct: 0, stats_off: 10.5 }));
});

const GHOSTS: [number, number, number][] = [
  [1000, 750, 25],
  [0, 0, 0],
  [1000, 1200, 0],
  [3, 2, 33.33],
];
for (const [rows, visible, pct] of GHOSTS) {
  test(`ghost rows of ${rows} stored / ${visible} visible = ${pct}%`, (t) => t.is(ghostRowsPct(rows, visible), pct));
}

test('alert solutions are looked up by event text, with a generic fallback', (t) => {
  t.regex(solutionForEvent('  Missing query planner statistics '), /ANALYZE/);
  t.regex(solutionForEvent('NESTED LOOP JOIN IN THE QUERY PLAN'), /join predicates/);
  t.regex(solutionForEvent('Something new'), /EXPLAIN/);
});

test('Field unions map to plain values', (t) => {
  t.deepEqual(
    [
      { isNull: true },
      { stringValue: 'x' },
      { longValue: 7 },
      { doubleValue: 1.5 },
      { booleanValue: false },
      { blobValue: new Uint8Array([1, 2]) },
    ].map((f) => fieldValue(f as never)),
    [null, 'x', 7, 1.5, false, 'AQI='],
  );
});

test('rows are keyed by column name and read with the type the caller expects', (t) => {
  const [row] = rowsFromRecords(
    [{ name: 'n' }, { label: 'd' }, { name: 't' }, { name: 'ts' }],
    [[{ stringValue: '12.75' }, { longValue: 3 }, { isNull: true }, { stringValue: '2025-01-02 03:04:05' }]],
  );
  t.is(numberOf(row!, 'n'), 12.75);
  t.is(integerOf(row!, 'n'), 13);
  t.is(integerOf(row!, 'd'), 3);
  t.is(textOf(row!, 't'), '');
  t.is(isoTimestampOf(row!, 'ts'), '2025-01-02T03:04:05.000Z');
  t.throws(() => textOf(row!, 'missing'), { instanceOf: ResultShapeError });
  t.throws(() => isoTimestampOf(row!, 'n'), { instanceOf: ResultShapeError });
});

test('timestamps are sent in the form Redshift casts back, in UTC', (t) => {
  t.is(toRedshiftTimestamp(new Date('2025-03-12T14:30:05.999Z')), '2025-03-12 14:30:05');
});

test('poll delays double up to the cap', (t) => {
  const next = pollDelays({ initialDelayMs: 50, maxDelayMs: 300, factor: 2 });
  t.deepEqual(Array.from({ length: 6 }, next), [50, 100, 200, 300, 300, 300]);
});
