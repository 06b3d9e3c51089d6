/** The plan rules, table-driven: how the simulated planner moves join rows, and what the notes say about a plan. */
import test from 'ava';
import { planNotes } from '../src/assistant/tools/warehouse/plan-notes.js';
import { UnknownRelationError } from '../src/gateways/warehouse/diagnostics.js';
import { joinDistribution, referencedTables } from '../src/gateways/warehouse/simulated/diagnostics/planner.js';
import type { SimulatedTable } from '../src/gateways/warehouse/simulated/table-catalogue.js';
import type { TableFigures } from '../src/gateways/warehouse/simulated/table-state.js';

const table = (name: string, distStyle: string, key: string, schema = 'analytics') =>
  ({ name, schema, distStyle, key }) as SimulatedTable;

const DISTRIBUTION: [string, SimulatedTable, SimulatedTable, number, number, string][] = [
  [
    'a dimension on every node',
    table('f', 'KEY(order_id)', 'order_id'),
    table('d', 'ALL', 'customer_id'),
    1e9,
    1e6,
    'DS_DIST_ALL_NONE',
  ],
  [
    'both tables on the same key',
    table('f', 'KEY(order_id)', 'order_id'),
    table('i', 'KEY(order_id)', 'order_id'),
    1e9,
    5e8,
    'DS_DIST_NONE',
  ],
  [
    'a small inner table spread evenly',
    table('f', 'KEY(order_id)', 'order_id'),
    table('d', 'EVEN', 'customer_id'),
    1e9,
    1e6,
    'DS_BCAST_INNER',
  ],
  [
    'a large inner table whose key the outer is distributed on',
    table('f', 'KEY(customer_id)', 'order_id'),
    table('c', 'EVEN', 'customer_id'),
    1e9,
    5e8,
    'DS_DIST_INNER',
  ],
  [
    'two large tables on other keys',
    table('f', 'EVEN', 'order_id'),
    table('s', 'EVEN', 'session_id'),
    1e9,
    5e8,
    'DS_DIST_BOTH',
  ],
];

for (const [title, outer, inner, outerRows, innerRows, expected] of DISTRIBUTION) {
  test(`join distribution: ${title} → ${expected}`, (t) => {
    t.is(joinDistribution(outer, inner, outerRows, innerRows), expected);
  });
}

const figures = { tbl_rows: 1000, size_mb: 1, unsorted_pct: 0, pct_ghost_rows: 0, stats_off: 0 } as TableFigures;
const catalogue = [
  table('fact_orders', 'EVEN', 'order_id'),
  table('dim_customer', 'ALL', 'customer_id'),
  table('stg_orders', 'EVEN', 'order_id', 'staging'),
].map((t) => ({ table: t, figures }));

const REFERENCES: [string, string, string[]][] = [
  [
    'schema-qualified with aliases',
    'SELECT * FROM analytics.fact_orders f JOIN analytics.dim_customer AS d ON f.customer_id = d.customer_id',
    ['fact_orders f', 'dim_customer d'],
  ],
  ['unqualified, quoted, no alias', 'SELECT * FROM "fact_orders" WHERE 1 = 1', ['fact_orders fact_orders']],
  [
    'a CTE is not a table',
    'WITH recent AS (SELECT * FROM staging.stg_orders) SELECT * FROM recent',
    ['stg_orders stg_orders'],
  ],
];

for (const [title, sql, expected] of REFERENCES) {
  test(`referenced tables: ${title}`, (t) => {
    t.deepEqual(
      referencedTables(sql, catalogue).map((r) => `${r.table.name} ${r.alias}`),
      expected,
    );
  });
}

test('referenced tables: an unknown or wrongly qualified table is an UnknownRelationError', (t) => {
  t.throws(() => referencedTables('SELECT * FROM analytics.stg_orders', catalogue), {
    instanceOf: UnknownRelationError,
    message: /analytics\.stg_orders/,
  });
});

const NOTES: [string, string[], RegExp][] = [
  ['a broadcast', ['XN Hash Join DS_BCAST_INNER  (cost=0.00..1.00 rows=1 width=1)'], /DS_BCAST_INNER/],
  ['a redistribution of both sides', ['XN Hash Join DS_DIST_BOTH  (cost=0.00..1.00 rows=1 width=1)'], /DS_DIST_BOTH/],
  ['a nested loop', ['XN Nested Loop DS_BCAST_INNER  (cost=0.00..1.00 rows=1 width=1)'], /Nested Loop/],
  ['a billion-row scan', ['XN Seq Scan on fact_events  (cost=0.00..1.00 rows=2000000000 width=8)'], /billion rows/],
  [
    'nothing costly',
    [
      'XN Hash Join DS_DIST_NONE  (cost=0.00..1.00 rows=1 width=1)',
      '  ->  XN Seq Scan on t  (cost=0.00..1.00 rows=10 width=8)',
    ],
    /^No broadcast/,
  ],
];

for (const [title, plan, note] of NOTES) {
  test(`plan notes: ${title}`, (t) => {
    t.true(
      planNotes(plan).some((text) => note.test(text)),
      planNotes(plan).join(' | '),
    );
  });
}
