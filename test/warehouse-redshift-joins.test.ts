/**
 * How the Redshift adapter joins what it reads (issue 26 item 4): table alerts as AWS's admin
 * script joins and groups them, load errors through the catalogue (empty tables have no
 * svv_table_info row), and SYS_QUERY_EXPLAIN's plan whichever name its qualifier column has.
 */
import test from 'ava';
import type { RecordedStatement } from './support/redshift-data-standin.js';
import { redshiftHarness as harness } from './support/redshift-gateway-harness.js';

const sqlOf = (standin: { executed: RecordedStatement[] }, name: string) =>
  standin.executed.find((s) => s.statementName === name)!.sql;

test('table alerts join the scan on query, slice and segment and group the event up to its first colon, as perf_alert.sql does', async (t) => {
  const { standin, gateway } = await harness(t);
  await gateway.tableAlerts('env-prov');
  const sql = sqlOf(standin, 'warehouse-watch:table-alerts');
  t.regex(sql, /JOIN stl_scan s ON s.query = a.query AND s.slice = a.slice AND s.segment = a.segment JOIN/);
  t.notRegex(sql, /s.step = a.step/);
  t.regex(sql, /TRIM\(SPLIT_PART\(a.event, ':', 1\)\) AS event/);
  t.regex(sql, /a.userid > 1 AND s.perm_table_name NOT LIKE 'volt_tt%'/);
  t.regex(sql, /GROUP BY 1, 2, 3, 4/);
  await gateway.tableAlerts('env-sls');
  t.regex(standin.executed.at(-1)!.sql, /TRIM\(SPLIT_PART\(d.alert, ':', 1\)\) AS event/);
});

test('the alert-log sync joins the scan the same way', async (t) => {
  const { standin, gateway } = await harness(t);
  await gateway.alertLog('env-prov', { from: new Date('2025-03-12T13:00:00Z'), to: new Date('2025-03-12T14:00:00Z') });
  const sql = sqlOf(standin, 'warehouse-watch:sync:alert-events');
  t.regex(sql, /s.segment = a.segment JOIN svv_table_info/);
  t.notRegex(sql, /s.step = a.step/);
});

test('load errors name their table through pg_class, so a regular user without grants and empty tables both get them', async (t) => {
  const { standin, gateway } = await harness(t, (statement) =>
    statement.statementName === 'warehouse-watch:load-errors'
      ? {
          columns: [
            'query_id',
            'time',
            'schema',
            'table_name',
            'file_name',
            'line_number',
            'column_name',
            'column_type',
            'error_code',
            'error_message',
            'raw_value',
          ],
          rows: [
            [
              77,
              '2025-03-12 14:00:00',
              'analytics',
              'orders_empty',
              's3://b/k',
              3,
              'id',
              'int4',
              1207,
              'Invalid digit',
              'x1',
            ],
          ],
        }
      : {},
  );
  // svv_table_info is superuser-only and has no row for an empty table: neither may hide a failed COPY.
  standin.actAs({ superuser: false });
  for (const envId of ['env-prov', 'env-sls']) {
    const errors = await gateway.loadErrors(envId, 24);
    t.is(errors.length, 1, envId);
    t.like(errors[0], { table_name: 'orders_empty', error_code: 1207 });
    const sql = standin.executed.at(-1)!.sql;
    t.regex(
      sql,
      /LEFT JOIN pg_class c ON c.oid = e.(tbl|table_id) LEFT JOIN pg_namespace n ON n.oid = c.relnamespace/,
      envId,
    );
    t.notRegex(sql, /svv_table_info/, envId);
  }
});

const HEADER = [
  'query_id',
  'user_name',
  'database',
  'queue',
  'status',
  'submitted_at',
  'end_time',
  'queue_seconds',
  'exec_seconds',
  'spill_mb',
  'query_text',
];

for (const qualifier of ['node_info', 'plan_info']) {
  test(`the serverless plan reads SYS_QUERY_EXPLAIN whole (${qualifier}) and lays out each rewritten child query in turn`, async (t) => {
    const { standin, gateway } = await harness(t, (statement) => {
      switch (statement.statementName) {
        case 'warehouse-watch:query-details':
          return {
            columns: HEADER,
            rows: [
              [
                4242,
                'etl',
                'dev',
                'etl',
                'success',
                '2025-03-12 14:00:00',
                '2025-03-12 14:10:00',
                '1',
                '2',
                0,
                'SELECT 1',
              ],
            ],
          };
        case 'warehouse-watch:query-plan':
          // The documented columns; rows deliberately out of order.
          return {
            columns: [
              'user_id',
              'query_id',
              'child_query_sequence',
              'plan_node_id',
              'plan_parent_id',
              'plan_node',
              qualifier,
            ],
            rows: [
              [100, 4242, 2, 1, 0, 'XN Seq Scan on b', ''],
              [100, 4242, 1, 2, 1, 'XN Seq Scan on a', 'Filter: (x > 1)'],
              [100, 4242, 1, 1, 0, 'XN Aggregate', ''],
            ],
          };
        default:
          return {
            columns: ['segment', 'step', 'label', 'table_name', 'rows', 'bytes', 'max_seconds', 'disk_based'],
            rows: [],
          };
      }
    });
    const details = await gateway.queryDetails('env-sls', 4242);
    t.deepEqual(details!.plan, [
      'XN Aggregate',
      '  ->  XN Seq Scan on a',
      '        Filter: (x > 1)',
      'XN Seq Scan on b',
    ]);
    const sql = sqlOf(standin, 'warehouse-watch:query-plan');
    t.regex(
      sql,
      /^SELECT \* FROM sys_query_explain WHERE query_id = CAST\(:query_id AS BIGINT\) ORDER BY child_query_sequence, plan_node_id LIMIT \d+$/,
    );
  });
}
