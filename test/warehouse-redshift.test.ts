import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:net';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import {
  MetricNotSupportedError,
  UnknownClusterError,
  UnknownEnvironmentError,
  WarehouseUnavailableError,
  type UnavailableReason,
  type WarehouseGateway,
} from '../src/gateways/warehouse/port.js';
import { createRedshiftGateway } from '../src/gateways/warehouse/redshift/redshift-gateway.js';
import { redshiftEnvironmentsWith } from './support/redshift-gateway-harness.js';
import { startRedshiftDataStandin, type RedshiftDataStandin } from './support/redshift-data-standin.js';

const START = Date.parse('2025-03-12T14:30:00Z');
const HOSTILE_SCHEMA = "analytics'; DROP TABLE users; --";

const environments = redshiftEnvironmentsWith(HOSTILE_SCHEMA);

interface Harness {
  standin: RedshiftDataStandin;
  gateway: WarehouseGateway;
  sleeps: number[];
}

async function harness(t: ExecutionContext, endpoint?: string, timeoutMs = 1000): Promise<Harness> {
  const standin = await startRedshiftDataStandin();
  t.teardown(() => standin.close());
  // A metric statement answers one value (no row is no data: MetricNoDataError); tests that script their own replace this.
  standin.script((statement) =>
    statement.statementName?.startsWith('warehouse-watch:metric:') ? { columns: ['value'], rows: [[0]] } : {},
  );
  let nowMs = START;
  const sleeps: number[] = [];
  const gateway = createRedshiftGateway({
    environments,
    clientOptions: {
      endpoint: endpoint ?? standin.url,
      credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin-secret' },
      maxAttempts: 1,
      requestTimeoutMs: 2000,
    },
    statementTimeoutMs: timeoutMs,
    backoff: { initialDelayMs: 10, maxDelayMs: 80, factor: 2 },
    now: () => new Date(nowMs),
    // Virtual time: a poll delay advances the clock instead of waiting.
    sleep: async (ms) => {
      sleeps.push(ms);
      nowMs += ms;
    },
  });
  return { standin, gateway, sleeps };
}

const OPERATIONS: [string, (g: WarehouseGateway, env: string) => Promise<unknown>][] = [
  ['cluster', (g, env) => g.cluster(env)],
  ['slowQueries', (g, env) => g.slowQueries(env)],
  ['spillQueries', (g, env) => g.spillQueries(env)],
  ['vacuumCandidates', (g, env) => g.vacuumCandidates(env)],
  ['tableAlerts', (g, env) => g.tableAlerts(env)],
  ['storage', (g, env) => g.storage(env)],
  ['readMetric', (g, env) => g.readMetric({ envId: env, metric: 'query_runtime_seconds', windowMinutes: 15 })],
];

// Which system views each question must read, per warehouse kind.
const EXPECTED_VIEWS: Record<string, { provisioned: RegExp; serverless: RegExp }> = {
  cluster: { provisioned: /stv_node_storage_capacity.*stv_slices/, serverless: /sys_serverless_usage/ },
  slowQueries: { provisioned: /stv_wlm_query_state.*stv_inflight.*stv_recents/, serverless: /sys_query_history/ },
  spillQueries: {
    provisioned: /svl_query_metrics_summary.*stl_query/,
    serverless: /sys_query_detail.*sys_query_history/,
  },
  vacuumCandidates: { provisioned: /svv_table_info/, serverless: /svv_table_info/ },
  tableAlerts: {
    provisioned: /stl_alert_event_log.*stl_scan.*svv_table_info/,
    serverless: /sys_query_detail.*svv_table_info/,
  },
  storage: { provisioned: /svv_table_info/, serverless: /svv_table_info/ },
  readMetric: { provisioned: /stl_wlm_query.*stv_wlm_query_state/, serverless: /sys_query_history/ },
};

for (const [operation, call] of OPERATIONS) {
  test(`${operation}: provisioned reads STL/STV/SVV views and names cluster and db user`, async (t) => {
    const { standin, gateway } = await harness(t);
    await call(gateway, 'env-prov');
    const [statement] = standin.executed;
    t.regex(statement!.sql, EXPECTED_VIEWS[operation]!.provisioned);
    t.notRegex(statement!.sql, /\bsys_/);
    t.like(statement, {
      clusterIdentifier: 'analytics-prod',
      dbUser: 'monitor',
      database: 'dw',
      workgroupName: undefined,
    });
  });

  test(`${operation}: serverless reads sys_* views (never STL/STV) and names the workgroup`, async (t) => {
    const { standin, gateway } = await harness(t);
    await call(gateway, 'env-sls');
    const [statement] = standin.executed;
    t.regex(statement!.sql, EXPECTED_VIEWS[operation]!.serverless);
    t.notRegex(statement!.sql, /\b(stl|stv|svl)_/);
    t.like(statement, {
      workgroupName: 'bi-workgroup',
      database: 'dev',
      clusterIdentifier: undefined,
      dbUser: undefined,
    });
    t.true(statement!.secretArn?.startsWith('arn:aws:secretsmanager:'));
  });

  test(`${operation}: every :placeholder is bound as a parameter and no value is spliced into the SQL`, async (t) => {
    const { standin, gateway } = await harness(t);
    await call(gateway, 'env-prov');
    const [statement] = standin.executed;
    const placeholders = new Set([...statement!.sql.matchAll(/(?<![:\w]):([a-z_]+)/g)].map((m) => m[1]!));
    t.deepEqual(Object.keys(statement!.parameters).sort(), [...placeholders].sort());
    t.false(statement!.sql.includes('DROP TABLE'));
    t.false(statement!.sql.includes('2025-03-'));
  });
}

for (const metric of BUILTIN_METRIC_IDS) {
  test(`metric ${metric}: one statement per kind, its placeholders exactly its parameters`, async (t) => {
    const { standin, gateway } = await harness(t);
    for (const envId of ['env-prov', 'env-sls']) {
      await gateway.readMetric({ envId, metric, windowMinutes: 10 }).catch((error: unknown) => {
        if (!(error instanceof MetricNotSupportedError)) throw error;
      });
    }
    t.true(standin.executed.length >= 1);
    for (const statement of standin.executed) {
      t.is(statement.statementName, `warehouse-watch:metric:${metric}`);
      const placeholders = new Set([...statement.sql.matchAll(/(?<![:\w]):([a-z_]+)/g)].map((m) => m[1]!));
      t.deepEqual(Object.keys(statement.parameters).sort(), [...placeholders].sort());
    }
  });
}

test('the environment schema travels as a parameter, hostile quotes and all', async (t) => {
  const { standin, gateway } = await harness(t);
  await gateway.vacuumCandidates('env-prov');
  t.deepEqual(standin.executed[0]!.parameters, {
    schema: HOSTILE_SCHEMA,
    unsorted_threshold: '5',
    stats_off_threshold: '10',
  });
});

test('time windows are computed from the injected clock and bound as timestamps', async (t) => {
  const { standin, gateway } = await harness(t);
  await gateway.tableAlerts('env-sls');
  await gateway.readMetric({ envId: 'env-prov', metric: 'disk_spill_gb', windowMinutes: 90 });
  t.is(standin.executed[0]!.parameters['since'], '2025-03-05 14:30:00');
  t.is(standin.executed[1]!.parameters['since'], '2025-03-12 13:00:00');
});

test('rows are mapped by column name from the Field unions, through every page', async (t) => {
  const { standin, gateway } = await harness(t);
  const columns = [
    'schema',
    'table_name',
    'size_mb',
    'tbl_rows',
    'estimated_visible_rows',
    'unsorted_pct',
    'stats_off',
    'dist_style',
    'sortkey1',
  ];
  const rows = Array.from({ length: 5 }, (_, i) => [
    `marts`,
    `table_${i}`,
    1000 - i,
    2000,
    1500,
    `${i}.50`,
    0,
    'KEY(id)',
    i === 4 ? null : 'created_at',
  ]);
  standin.script(() => ({ columns, rows, pageSize: 2 }));
  const tables = await gateway.storage('env-sls');
  t.is(tables.length, 5);
  t.deepEqual(tables[4], {
    schema: 'marts',
    table_name: 'table_4',
    size_mb: 996,
    tbl_rows: 2000,
    unsorted_pct: 4.5,
    pct_ghost_rows: 25,
    dist_style: 'KEY(id)',
    sortkey1: '',
    cluster_id: 'bi-workgroup',
  });
  t.deepEqual(
    standin.operations.filter((op) => op === 'GetStatementResult'),
    ['GetStatementResult', 'GetStatementResult', 'GetStatementResult'],
  );
});

test('slow queries, alerts and cluster nodes map to the port records', async (t) => {
  const { standin, gateway } = await harness(t);
  standin.script((statement) => {
    if (statement.sql.includes('stv_wlm_query_state')) {
      return {
        columns: ['query_id', 'exec_time_seconds', 'user_name', 'database', 'wlm_queue', 'query_text'],
        rows: [[4242, '1830', 'etl_airflow', 'dw', 'etl', 'INSERT INTO analytics.fact_orders SELECT 1']],
      };
    }
    if (statement.sql.includes('stl_alert_event_log')) {
      return {
        columns: ['schema', 'table_name', 'event', 'solution', 'count', 'last_seen', 'sample_query_id'],
        rows: [
          [
            'analytics',
            'fact_orders',
            'Missing query planner statistics',
            'Run the ANALYZE command',
            3,
            '2025-03-11 09:15:02.123456',
            4200,
          ],
        ],
      };
    }
    return {
      columns: ['node_id', 'slices', 'capacity_mb', 'used_mb'],
      rows: [
        ['0', 2, 163840, 81920],
        ['1', 2, 163840, 40960],
      ],
    };
  });
  t.deepEqual(await gateway.slowQueries('env-prov'), [
    {
      query_id: 4242,
      exec_time_seconds: 1830,
      user_name: 'etl_airflow',
      database: 'dw',
      wlm_queue: 'etl',
      query_text: 'INSERT INTO analytics.fact_orders SELECT 1',
      cluster_id: 'analytics-prod',
    },
  ]);
  t.like((await gateway.tableAlerts('env-prov'))[0], {
    count: 3,
    last_seen: '2025-03-11T09:15:02.123Z',
    sample_query_id: 4200,
    solution: 'Run the ANALYZE command',
  });
  const health = await gateway.cluster('env-prov');
  t.deepEqual(health.totals, { node_count: 2, slices: 4, capacity_gb: 320, used_gb: 120, pct_used: 37.5 });
  t.deepEqual(
    health.nodes.map((n) => [n.id, n.role, n.pct_used]),
    [
      ['0', 'compute', 50],
      ['1', 'compute', 25],
    ],
  );
});

test('serverless alerts get their solution from the event catalogue; the workgroup is one pseudo-node', async (t) => {
  const { standin, gateway } = await harness(t);
  standin.script((statement) =>
    statement.sql.includes('sys_serverless_usage')
      ? { columns: ['node_id', 'slices', 'capacity_mb', 'used_mb'], rows: [['workgroup', 0, null, 2048]] }
      : {
          columns: ['schema', 'table_name', 'event', 'solution', 'count', 'last_seen', 'sample_query_id'],
          rows: [['marts', 'mart_churn', 'Very selective query filter', '', 2, '2025-03-12 10:00:00', 77]],
        },
  );
  t.regex((await gateway.tableAlerts('env-sls'))[0]!.solution, /sort key/);
  const health = await gateway.cluster('env-sls');
  t.deepEqual(health.nodes, [
    {
      cluster_id: 'bi-workgroup',
      id: 'bi-workgroup',
      role: 'serverless',
      slices: 0,
      capacity_gb: null,
      used_gb: 2,
      pct_used: null,
    },
  ]);
  t.is(health.totals.pct_used, null);
});

test('a metric value arrives as a NUMERIC string and is read as a number', async (t) => {
  const { standin, gateway } = await harness(t);
  standin.script(() => ({ columns: ['value'], rows: [['1830.250000']] }));
  t.is(await gateway.readMetric({ envId: 'env-prov', metric: 'query_runtime_seconds', windowMinutes: 15 }), 1830.25);
});

test('metrics a serverless workgroup cannot measure fail typed, without a statement', async (t) => {
  const { standin, gateway } = await harness(t);
  for (const metric of ['cpu_utilization_pct', 'storage_utilization_pct']) {
    await t.throwsAsync(gateway.readMetric({ envId: 'env-sls', metric, windowMinutes: 5 }), {
      instanceOf: MetricNotSupportedError,
    });
  }
  t.is(standin.executed.length, 0);
});

test('a cluster_id other than the environment cluster, or an unknown env, fails before any statement', async (t) => {
  const { standin, gateway } = await harness(t);
  const error = await t.throwsAsync(
    gateway.readMetric({ envId: 'env-prov', clusterId: 'other', metric: 'unsorted_pct', windowMinutes: 5 }),
    {
      instanceOf: UnknownClusterError,
    },
  );
  t.deepEqual(error?.knownClusters, ['analytics-prod']);
  await t.throwsAsync(gateway.storage('env-nobody'), { instanceOf: UnknownEnvironmentError });
  t.is(standin.executed.length, 0);
});

test('polling backs off exponentially up to the cap', async (t) => {
  const { standin, gateway, sleeps } = await harness(t);
  standin.script(() => ({ columns: ['value'], rows: [[1]], pollsBeforeDone: 5 }));
  await gateway.readMetric({ envId: 'env-prov', metric: 'active_query_count', windowMinutes: 1 });
  t.deepEqual(sleeps, [10, 20, 40, 80, 80, 80]);
});

test('a statement that never settles is cancelled at the timeout and reported as unavailable', async (t) => {
  const { standin, gateway, sleeps } = await harness(t);
  standin.script(() => ({ columns: ['value'], rows: [[1]], pollsBeforeDone: 10_000 }));
  const error = await t.throwsAsync(gateway.slowQueries('env-prov'), { instanceOf: WarehouseUnavailableError });
  t.is(error?.reason, 'timeout');
  t.is(
    error?.message,
    'provisioned cluster "analytics-prod" of environment env-prov did not answer the slow-queries statement within 1000 ms',
  );
  t.is(
    sleeps.reduce((sum, ms) => sum + ms, 0),
    1000,
  );
  t.true(standin.operations.filter((op) => op === 'DescribeStatement').length <= 16);
  t.deepEqual(standin.cancelled, [standin.executed[0]!.id]);
});

const FAILURES: {
  title: string;
  arrange: (s: RedshiftDataStandin) => void;
  reason: UnavailableReason;
  message: RegExp;
  secret: string;
}[] = [
  {
    title: 'a FAILED statement',
    arrange: (s) =>
      s.script(() => ({
        outcome: 'FAILED',
        error: 'ERROR: column "secret_column" does not exist',
        pollsBeforeDone: 1,
      })),
    reason: 'statement_failed',
    message: /^provisioned cluster "analytics-prod" of environment env-prov failed to run the slow-queries statement$/,
    secret: 'secret_column',
  },
  {
    // Superuser-only views are named (warehouse-redshift-permissions.test.ts); any other refused relation is not.
    title: 'a FAILED statement refused a relation',
    arrange: (s) =>
      s.script(() => ({
        outcome: 'FAILED',
        error: 'ERROR: permission denied for relation hr_salaries',
        pollsBeforeDone: 1,
      })),
    reason: 'permission_denied',
    message:
      /^provisioned cluster "analytics-prod" of environment env-prov refused the monitoring user a relation the slow-queries statement reads$/,
    secret: 'hr_salaries',
  },
  {
    title: 'an ABORTED statement',
    arrange: (s) => s.script(() => ({ outcome: 'ABORTED' })),
    reason: 'statement_failed',
    message: /aborted the slow-queries statement$/,
    secret: 'ERROR',
  },
  {
    title: 'a ValidationException naming a missing endpoint',
    arrange: (s) =>
      s.failNext('ExecuteStatement', {
        type: 'ValidationException',
        message: "Redshift endpoint doesn't exist in this region.",
      }),
    reason: 'endpoint_missing',
    message: /^provisioned cluster "analytics-prod" of environment env-prov has no endpoint the Data API can find/,
    secret: 'this region',
  },
  {
    title: 'a ValidationException for a paused cluster',
    arrange: (s) =>
      s.failNext('ExecuteStatement', {
        type: 'ValidationException',
        message: 'Cluster analytics-prod is paused. Resume it first.',
      }),
    reason: 'paused',
    message: /^provisioned cluster "analytics-prod" of environment env-prov is paused$/,
    secret: 'Resume it first',
  },
  {
    title: 'a DatabaseConnectionException',
    arrange: (s) =>
      s.failNext('ExecuteStatement', {
        status: 500,
        type: 'DatabaseConnectionException',
        message: 'Connection refused by host 10.0.0.12',
      }),
    reason: 'unreachable',
    message: /is unreachable: the Data API could not connect to the database$/,
    secret: '10.0.0.12',
  },
  {
    title: 'too many active statements',
    arrange: (s) =>
      s.failNext('ExecuteStatement', {
        type: 'ActiveStatementsExceededException',
        message: 'Active statements exceeded the allowed quota (200).',
      }),
    reason: 'throttled',
    message: /is busy/,
    secret: 'quota',
  },
  {
    title: 'access denied',
    arrange: (s) =>
      s.failNext('ExecuteStatement', {
        status: 403,
        type: 'AccessDeniedException',
        message: 'User arn:aws:iam::123:user/x is not authorized',
      }),
    reason: 'access_denied',
    message: /refused the platform access/,
    secret: 'arn:aws:iam',
  },
  {
    title: 'an error while polling',
    arrange: (s) =>
      s.failNext('DescribeStatement', {
        status: 500,
        type: 'InternalServerException',
        message: 'stack trace at com.amazon.Foo',
      }),
    reason: 'error',
    message: /of environment env-prov returned an error$/,
    secret: 'com.amazon',
  },
];

for (const failure of FAILURES) {
  test(`${failure.title} becomes WarehouseUnavailableError without the driver's text`, async (t) => {
    const { standin, gateway } = await harness(t);
    failure.arrange(standin);
    const error = await t.throwsAsync(gateway.slowQueries('env-prov'), { instanceOf: WarehouseUnavailableError });
    t.is(error?.reason, failure.reason);
    t.is(error?.envId, 'env-prov');
    t.regex(error!.message, failure.message);
    t.false(error!.message.includes(failure.secret));
  });
}

test('an endpoint nobody listens on is reported as unreachable', async (t) => {
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const { gateway } = await harness(t, `http://127.0.0.1:${closedPort}`);
  const error = await t.throwsAsync(gateway.cluster('env-sls'), { instanceOf: WarehouseUnavailableError });
  t.is(error?.reason, 'unreachable');
  t.is(
    error?.message,
    'serverless workgroup "bi-workgroup" of environment env-sls is unreachable: the Redshift Data API endpoint cannot be reached',
  );
});
