/**
 * The diagnostic questions through the real Data API client against the stand-in: which views
 * each kind reads, that every value is a bound parameter, and that rows map by column name.
 */
import test, { type ExecutionContext } from 'ava';
import { RefusedSqlError, type WarehouseDiagnostics } from '../src/gateways/warehouse/diagnostics.js';
import { fileEnvironmentResolver, parseEnvironments } from '../src/gateways/warehouse/environments.js';
import type { WarehouseGateway } from '../src/gateways/warehouse/port.js';
import { createRedshiftGateway } from '../src/gateways/warehouse/redshift/redshift-gateway.js';
import {
  startRedshiftDataStandin,
  type RedshiftDataStandin,
  type StatementScript,
} from './support/redshift-data-standin.js';

const START = Date.parse('2025-03-12T14:30:00Z');
const HOSTILE_SCHEMA = "analytics'; DROP TABLE users; --";
const HOSTILE_TABLE = 'orders$x';

const environments = fileEnvironmentResolver(
  parseEnvironments({
    'env-prov': {
      kind: 'provisioned',
      cluster_identifier: 'analytics-prod',
      database: 'dw',
      db_user: 'monitor',
      region: 'eu-west-1',
      schema: HOSTILE_SCHEMA,
    },
    'env-sls': {
      kind: 'serverless',
      workgroup_name: 'bi-workgroup',
      database: 'dev',
      region: 'eu-west-1',
      schema: 'marts',
    },
  }),
);

async function harness(t: ExecutionContext): Promise<{ standin: RedshiftDataStandin; gateway: WarehouseGateway }> {
  const standin = await startRedshiftDataStandin();
  t.teardown(() => standin.close());
  let nowMs = START;
  const gateway = createRedshiftGateway({
    environments,
    clientOptions: {
      endpoint: standin.url,
      credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin-secret' },
      maxAttempts: 1,
    },
    statementTimeoutMs: 1000,
    backoff: { initialDelayMs: 10, maxDelayMs: 20, factor: 2 },
    now: () => new Date(nowMs),
    sleep: async (ms) => void (nowMs += ms),
  });
  return { standin, gateway };
}

type Ask = (g: WarehouseDiagnostics, env: string, schema: string) => Promise<unknown>;

// [operation, call, views provisioned reads, views serverless reads]
const QUESTIONS: [string, Ask, RegExp, RegExp][] = [
  [
    'runningQueries',
    (g, env) => g.runningQueries(env),
    /stv_wlm_query_state.*stv_inflight.*stv_recents/,
    /sys_query_history/,
  ],
  ['longestQueries', (g, env) => g.longestQueries(env, 24), /stl_query.*stl_wlm_query/, /sys_query_history/],
  [
    'queryDetails',
    (g, env) => g.queryDetails(env, 4242),
    /stl_query.*stl_wlm_query.*svl_query_metrics_summary/,
    /sys_query_history.*sys_query_detail/,
  ],
  ['explain', (g, env) => g.explain(env, 'SELECT 1'), /^EXPLAIN SELECT 1$/, /^EXPLAIN SELECT 1$/],
  ['queueWaits', (g, env) => g.queueWaits(env, 6), /stl_wlm_query.*stv_wlm_service_class_config/, /sys_query_history/],
  [
    'lockWaits',
    (g, env) => g.lockWaits(env),
    /svv_transactions.*svv_table_info.*stv_recents/,
    /svv_transactions.*svv_table_info.*sys_query_history/,
  ],
  ['commitQueue', (g, env) => g.commitQueue(env, 24), /stl_commit_stats/, /sys_transaction_history/],
  [
    'loadErrors',
    (g, env) => g.loadErrors(env, 24),
    /stl_load_errors.*LEFT JOIN pg_class.*pg_namespace/,
    /sys_load_error_detail.*LEFT JOIN pg_class.*pg_namespace/,
  ],
  [
    'userWorkload',
    (g, env) => g.userWorkload(env, 24),
    /stl_wlm_query.*svl_query_metrics_summary/,
    /sys_query_history.*sys_query_detail/,
  ],
  [
    'concurrencyScaling',
    (g, env) => g.concurrencyScaling(env, 24),
    /svcs_concurrency_scaling_usage/,
    /sys_query_history.*compute_type/,
  ],
  [
    'schemas',
    (g, env) => g.schemas(env),
    /svv_redshift_schemas.*svv_redshift_tables/,
    /svv_redshift_schemas.*svv_redshift_tables/,
  ],
  [
    'tables',
    (g, env, schema) => g.tables(env, schema),
    /svv_redshift_tables.*svv_table_info/,
    /svv_redshift_tables.*svv_table_info/,
  ],
  [
    'columns',
    (g, env, schema) => g.columns(env, schema, HOSTILE_TABLE),
    /svv_redshift_columns/,
    /svv_redshift_columns/,
  ],
];

const placeholdersOf = (sql: string) => new Set([...sql.matchAll(/(?<![:\w]):([a-z_]+)/g)].map((m) => m[1]!));

/** queryDetails reads steps and plan only when the header row exists. */
const withHeader = (standin: RedshiftDataStandin) =>
  standin.script(
    (statement): StatementScript =>
      statement.statementName === 'warehouse-watch:query-details'
        ? {
            columns: [
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
            ],
            rows: [
              [
                4242,
                'etl',
                'dw',
                'etl',
                'success',
                '2025-03-12 14:00:00',
                '2025-03-12 14:10:00',
                '1.5',
                '600.25',
                12,
                'SELECT 1',
              ],
            ],
          }
        : {},
  );

for (const [operation, ask, provisioned, serverless] of QUESTIONS) {
  test(`${operation}: provisioned reads STL/STV/SVL/SVV views only, naming the cluster`, async (t) => {
    const { standin, gateway } = await harness(t);
    withHeader(standin);
    await ask(gateway, 'env-prov', HOSTILE_SCHEMA);
    t.true(standin.executed.length >= 1);
    t.regex(standin.executed.map((s) => s.sql).join(' '), provisioned);
    for (const statement of standin.executed) {
      t.notRegex(statement.sql, /\bsys_/);
      t.like(statement, { clusterIdentifier: 'analytics-prod', dbUser: 'monitor', workgroupName: undefined });
    }
  });

  test(`${operation}: serverless reads SYS and SVV views only (never STL/STV/SVL), naming the workgroup`, async (t) => {
    const { standin, gateway } = await harness(t);
    withHeader(standin);
    await ask(gateway, 'env-sls', 'marts');
    t.true(standin.executed.length >= 1);
    t.regex(standin.executed.map((s) => s.sql).join(' '), serverless);
    for (const statement of standin.executed) {
      t.notRegex(statement.sql, /\b(stl|stv|svl|svcs)_/);
      t.like(statement, { workgroupName: 'bi-workgroup', clusterIdentifier: undefined });
    }
  });

  test(`${operation}: every :placeholder is bound and no value is spliced into the SQL`, async (t) => {
    const { standin, gateway } = await harness(t);
    withHeader(standin);
    await ask(gateway, 'env-prov', HOSTILE_SCHEMA);
    for (const statement of standin.executed) {
      t.deepEqual(
        Object.keys(statement.parameters).sort(),
        [...placeholdersOf(statement.sql)].sort(),
        statement.statementName,
      );
      t.false(statement.sql.includes('DROP TABLE'));
      t.false(statement.sql.includes('2025-03-'));
      t.false(statement.sql.includes(HOSTILE_TABLE));
      t.false(/\b4242\b/.test(statement.sql));
    }
  });
}

test('look-backs are bound as timestamps from the injected clock; ids, schema and table as parameters', async (t) => {
  const { standin, gateway } = await harness(t);
  await gateway.loadErrors('env-prov', 6);
  await gateway.queryDetails('env-sls', 4242);
  await gateway.columns('env-prov', HOSTILE_SCHEMA, 'Fact_Orders');
  t.deepEqual(standin.executed[0]!.parameters, { schema: HOSTILE_SCHEMA, since: '2025-03-12 08:30:00' });
  t.deepEqual(standin.executed[1]!.parameters, { query_id: '4242' });
  t.deepEqual(standin.executed[2]!.parameters, { schema: HOSTILE_SCHEMA, table: 'fact_orders' });
});

test('a look-back outside 1-168 whole hours is refused before any statement', async (t) => {
  const { standin, gateway } = await harness(t);
  for (const hours of [0, 169, 1.5, Number.NaN])
    await t.throwsAsync(gateway.userWorkload('env-prov', hours), { instanceOf: RangeError });
  t.is(standin.executed.length, 0);
});

test("catalogue questions about another schema than the environment's answer nothing without a statement", async (t) => {
  const { standin, gateway } = await harness(t);
  t.deepEqual(await gateway.tables('env-sls', 'analytics'), []);
  t.deepEqual(await gateway.columns('env-sls', 'staging', 'stg_orders'), []);
  t.is(standin.executed.length, 0);
});

test('explain refuses anything but a single read-only SELECT before any statement', async (t) => {
  const { standin, gateway } = await harness(t);
  for (const sql of ['DELETE FROM t', 'SELECT 1; DROP TABLE t', 'select 1 /* /* */ ; drop table t; */']) {
    await t.throwsAsync(gateway.explain('env-prov', sql), { instanceOf: RefusedSqlError });
  }
  t.is(standin.executed.length, 0);
});

test('explain sends exactly one ExecuteStatement (never a batch), and the CR-comment attack of issue 25 sends nothing', async (t) => {
  const { standin, gateway } = await harness(t);
  const attacks = [
    'SELECT * FROM analytics.fact_orders -- c\r; DELETE FROM analytics.fact_orders',
    'SELECT * FROM analytics.fact_orders -- c\r; DROP TABLE analytics.fact_orders',
    'SELECT "pg_terminate_backend"(1)',
  ];
  for (const sql of attacks) await t.throwsAsync(gateway.explain('env-sls', sql), { instanceOf: RefusedSqlError });
  t.deepEqual(standin.operations, [], 'nothing reached the Data API');
  standin.script(() => ({ columns: ['QUERY PLAN'], rows: [['XN Seq Scan on fact_orders']] }));
  const plan = await gateway.explain('env-sls', 'SELECT * FROM marts.fact_orders -- c\r\n;');
  t.deepEqual(plan, ['XN Seq Scan on fact_orders']);
  t.is(standin.executed.length, 1);
  t.is(
    standin.executed[0]!.sql,
    'EXPLAIN SELECT * FROM marts.fact_orders -- c',
    'the checked statement, cut at its semicolon',
  );
  t.deepEqual(
    standin.operations.filter((operation) => operation !== 'DescribeStatement' && operation !== 'GetStatementResult'),
    ['ExecuteStatement'],
  );
});

test('running queries, lock waits and load errors map by column name', async (t) => {
  const { standin, gateway } = await harness(t);
  standin.script((statement) => {
    switch (statement.statementName) {
      case 'warehouse-watch:running-queries':
        return {
          columns: [
            'query_text',
            'query_id',
            'pid',
            'user_name',
            'database',
            'queue',
            'state',
            'submitted_at',
            'queue_seconds',
            'exec_seconds',
          ],
          rows: [
            [
              'SELECT 1',
              77,
              1073742000,
              'looker_svc',
              'dw',
              'dashboards',
              'queued',
              '2025-03-12 14:29:00.123456',
              '60',
              0,
            ],
          ],
        };
      case 'warehouse-watch:lock-waits':
        return {
          columns: [
            'blocking_query_text',
            'schema',
            'table_name',
            'waiting_pid',
            'waiting_user',
            'requested_lock',
            'waiting_seconds',
            'waiting_query_text',
            'blocking_pid',
            'blocking_user',
            'held_lock',
            'blocking_seconds',
          ],
          rows: [
            [
              'INSERT INTO a.t SELECT 1',
              'analytics',
              'fact_orders',
              101,
              'dbt',
              'ShareRowExclusiveLock',
              95,
              'INSERT INTO a.t SELECT 2',
              100,
              'etl',
              'AccessExclusiveLock',
              300,
            ],
          ],
        };
      default:
        return {
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
              9,
              '2025-03-12 13:00:00',
              'marts',
              'stg',
              's3://b/k.csv',
              12,
              'amount',
              'numeric',
              1207,
              "Invalid digit, Value 'N'",
              'N/A',
            ],
          ],
        };
    }
  });
  t.deepEqual(await gateway.runningQueries('env-prov'), [
    {
      cluster_id: 'analytics-prod',
      query_id: 77,
      pid: 1073742000,
      user_name: 'looker_svc',
      database: 'dw',
      queue: 'dashboards',
      state: 'queued',
      submitted_at: '2025-03-12T14:29:00.123Z',
      queue_seconds: 60,
      exec_seconds: 0,
      query_text: 'SELECT 1',
    },
  ]);
  t.like((await gateway.lockWaits('env-prov'))[0], {
    waiting_pid: 101,
    blocking_pid: 100,
    held_lock: 'AccessExclusiveLock',
    waiting_seconds: 95,
    blocking_query_text: 'INSERT INTO a.t SELECT 1',
  });
  t.like((await gateway.loadErrors('env-sls', 24))[0], {
    cluster_id: 'bi-workgroup',
    error_code: 1207,
    line_number: 12,
    time: '2025-03-12T13:00:00.000Z',
  });
});

test('query details map steps (table from the label) and the plan indented by depth', async (t) => {
  const { standin, gateway } = await harness(t);
  standin.script((statement) => {
    switch (statement.statementName) {
      case 'warehouse-watch:query-details':
        return {
          columns: [
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
          ],
          rows: [
            [
              4242,
              'etl',
              'dw',
              'etl',
              'success',
              '2025-03-12 14:00:00',
              '2025-03-12 14:10:00',
              '1.5',
              '600.25',
              12,
              'SELECT 1',
            ],
          ],
        };
      case 'warehouse-watch:query-steps':
        return {
          columns: ['segment', 'step', 'label', 'table_name', 'rows', 'bytes', 'max_seconds', 'disk_based'],
          rows: [
            [0, 0, 'scan   tbl=108290 name=fact_orders', '', 1000, 64000, '2.5', 0],
            [1, 2, 'hash   tbl=439', '', 10, 80, '0.1', 1],
          ],
        };
      default:
        return {
          columns: ['node_id', 'parent_id', 'plan_node', 'info'],
          rows: [
            [1, 0, 'XN Hash Join DS_BCAST_INNER', 'Hash Cond: (a = b)'],
            [2, 1, 'XN Seq Scan on fact_orders', ''],
          ],
        };
    }
  });
  const details = await gateway.queryDetails('env-prov', 4242);
  t.like(details, { query_id: 4242, exec_seconds: 600.25, spill_mb: 12, end_time: '2025-03-12T14:10:00.000Z' });
  t.deepEqual(
    details!.steps.map((s) => [s.label, s.table_name, s.disk_based]),
    [
      ['scan', 'fact_orders', false],
      ['hash', null, true],
    ],
  );
  t.deepEqual(details!.plan, [
    'XN Hash Join DS_BCAST_INNER',
    '  Hash Cond: (a = b)',
    '  ->  XN Seq Scan on fact_orders',
  ]);
});

test('an unknown query id answers null after one statement', async (t) => {
  const { standin, gateway } = await harness(t);
  t.is(await gateway.queryDetails('env-prov', 1), null);
  t.is(standin.executed.length, 1);
});

test('serverless commits have no queue figures (null), provisioned ones do', async (t) => {
  const { standin, gateway } = await harness(t);
  const summary = [
    'commits',
    'avg_queue_seconds',
    'max_queue_seconds',
    'avg_commit_seconds',
    'max_commit_seconds',
    'max_queue_length',
  ];
  const worst = ['xid', 'user_name', 'queued_at', 'queue_seconds', 'commit_seconds', 'queue_length'];
  standin.script((statement) =>
    statement.statementName === 'warehouse-watch:commit-summary'
      ? { columns: summary, rows: [[12, statement.sql.includes('sys_') ? null : '0.5', null, '1.25', '4', null]] }
      : { columns: worst, rows: [[900, 'etl', '2025-03-12 14:00:00', null, '4.0', null]] },
  );
  const sls = await gateway.commitQueue('env-sls', 24);
  t.deepEqual(sls.summaries, [
    {
      cluster_id: 'bi-workgroup',
      commits: 12,
      avg_queue_seconds: null,
      max_queue_seconds: null,
      avg_commit_seconds: 1.25,
      max_commit_seconds: 4,
      max_queue_length: null,
    },
  ]);
  t.like(sls.worst[0], { xid: 900, queue_seconds: null, commit_seconds: 4 });
  t.is((await gateway.commitQueue('env-prov', 24)).summaries[0]!.avg_queue_seconds, 0.5);
});

test("explain refuses a relation outside the environment's schema, naming it, before any statement (issue 25)", async (t) => {
  const { standin, gateway } = await harness(t);
  await t.throwsAsync(gateway.explain('env-sls', 'SELECT * FROM tenant_b.customers_pii'), {
    instanceOf: RefusedSqlError,
    message: /tenant_b\.customers_pii is not in this environment's schemas \(marts\)/,
  });
  await t.throwsAsync(gateway.explain('env-sls', 'SELECT * FROM marts.orders o JOIN pg_catalog.pg_user u ON true'), {
    message: /pg_catalog\.pg_user/,
  });
  await t.throwsAsync(gateway.explain('env-sls', 'SELECT * FROM stv_sessions'), {
    message: /stv_sessions \(name its schema\)/,
  });
  t.deepEqual(standin.operations, []);
});
