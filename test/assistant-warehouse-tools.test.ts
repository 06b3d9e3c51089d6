/**
 * The 19 warehouse tools against the simulated warehouse: each answers what its output schema
 * says, with real content where the simulated cluster has data; bad input is refused by the
 * input schema; the environment comes from the scope only.
 */
import test, { type ExecutionContext } from 'ava';
import { z } from 'zod';
import { RefusedSqlError } from '../src/gateways/warehouse/diagnostics.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import type { AssistantTool, ToolScope } from '../src/assistant/tool.js';
import { QUERY_TEXT_CAP } from '../src/assistant/tools/warehouse/shared.js';
import { warehouseTools } from '../src/assistant/tools/warehouse/index.js';

// A Monday in the nightly ETL window: loads queue, spill, lock and commit; two clusters in env-a.
const NOW = new Date('2026-03-02T02:30:00Z');
const ENV = 'env-a';

const { gateway } = createSimulatedWarehouse({ now: () => NOW });
const tools = warehouseTools(gateway);
const scope = (envId = ENV): ToolScope => ({
  tenantId: 'tenant-a',
  envId,
  now: NOW,
  signal: new AbortController().signal,
});

function tool(name: string): AssistantTool {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Parses the input as the agent loop would, runs the tool, and holds the answer against the output schema. */
async function call(t: ExecutionContext, name: string, input: unknown, envId = ENV): Promise<any> {
  const chosen = tool(name);
  const output = await chosen.run(chosen.input.parse(input), scope(envId));
  const checked = chosen.output.safeParse(output);
  t.true(checked.success, checked.success ? '' : `${name}: ${JSON.stringify(checked.error.issues.slice(0, 3))}`);
  return output;
}

test('exactly 19 warehouse tools, snake_case, unique, each with a description and a valid example', (t) => {
  t.is(tools.length, 19);
  t.is(new Set(tools.map((x) => x.name)).size, 19);
  for (const each of tools) {
    t.regex(each.name, /^[a-z][a-z0-9_]*$/);
    t.is(each.family, 'warehouse');
    t.true(each.description.length > 60, each.name);
    t.true(each.input.safeParse(each.example).success, `${each.name} example`);
  }
});

test('every input schema converts to the JSON schema the model sees, an object whose fields are described', (t) => {
  for (const each of tools) {
    const schema = z.toJSONSchema(each.input, { io: 'input' }) as {
      type: string;
      properties?: Record<string, { description?: string }>;
      additionalProperties?: boolean;
    };
    t.is(schema.type, 'object', each.name);
    t.is(schema.additionalProperties, false, each.name);
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      if (!['state', 'order_by', 'only_problems'].includes(field))
        t.truthy(property.description, `${each.name}.${field} has no description`);
    }
  }
});

test('no tool takes a tenant or environment: the input objects are strict', (t) => {
  for (const each of tools) {
    for (const field of ['env_id', 'tenant_id', 'envId']) {
      t.false(
        each.input.safeParse({ ...(each.example as object), [field]: 'other-env' }).success,
        `${each.name} accepts ${field}`,
      );
    }
  }
});

test('every example runs against the simulated warehouse and matches its output schema', async (t) => {
  for (const each of tools) await call(t, each.name, each.example);
});

/** What "non-trivial" means per tool at NOW, in an environment with data. */
const CONTENT: [string, unknown, (out: any) => void][] = [
  [
    'cluster_overview',
    {},
    (out) => {
      if (out.clusters.length < 1 || out.totals.used_gb <= 0) throw new Error('no clusters or storage');
      if (out.clusters.reduce((sum: number, c: any) => sum + c.executing_queries, 0) === 0)
        throw new Error('nothing executing');
    },
  ],
  [
    'node_storage',
    {},
    (out) => {
      if (out.clusters[0].nodes.length < 2 || out.clusters[0].spread_pct_points === null) throw new Error('no nodes');
    },
  ],
  [
    'running_queries',
    { limit: 5 },
    (out) => {
      if (out.total < 1 || out.queries.length !== Math.min(5, out.total)) throw new Error('no running queries');
    },
  ],
  [
    'slow_queries',
    { lookback_hours: 24, limit: 5 },
    (out) => {
      if (out.finished.length !== 5 || out.finished[0].exec_seconds < out.finished[4].exec_seconds)
        throw new Error('not the longest first');
    },
  ],
  [
    'wlm_queue_waits',
    { lookback_hours: 6 },
    (out) => {
      if (!out.queues.some((q: any) => q.queue === 'etl' && q.queued_queries > 0 && q.max_queue_seconds > 0))
        throw new Error('no etl waits');
    },
  ],
  [
    'disk_spill',
    { limit: 5 },
    (out) => {
      if (out.queries.length !== 5 || out.total_spill_mb <= 0 || out.by_user.length < 1) throw new Error('no spill');
    },
  ],
  [
    'table_health',
    {},
    (out) => {
      if (out.tables.length < 1 || !out.tables.every((x: any) => x.issues.length > 0 && x.recommendation !== 'none'))
        throw new Error('no problem tables');
    },
  ],
  [
    'table_storage',
    { limit: 5 },
    (out) => {
      if (out.tables.length !== 5 || out.by_schema.length < 2 || out.total_size_mb <= 0) throw new Error('no storage');
    },
  ],
  [
    'table_alerts',
    {},
    (out) => {
      if (out.alerts.length < 1 || !out.alerts[0].solution) throw new Error('no alerts');
    },
  ],
  [
    'lock_waits',
    {},
    (out) => {
      if (out.waits.length < 1 || out.blocking_pids.length < 1) throw new Error('no lock waits in the ETL window');
    },
  ],
  [
    'commit_queue',
    { lookback_hours: 24 },
    (out) => {
      if (out.summaries.length < 1 || out.summaries[0].commits < 10 || out.worst.length < 1)
        throw new Error('no commits');
    },
  ],
  [
    'load_errors',
    { lookback_hours: 24 },
    (out) => {
      if (out.errors.length < 1 || out.by_error.length < 1 || !out.errors[0].file_name.startsWith('s3://'))
        throw new Error('no load errors');
    },
  ],
  [
    'user_workload',
    { lookback_hours: 24 },
    (out) => {
      if (out.users.length < 4 || !out.users.some((u: any) => u.user_name === 'etl_airflow'))
        throw new Error('no users');
    },
  ],
  [
    'concurrency_scaling_usage',
    { lookback_hours: 24 },
    (out) => {
      if (out.periods.length < 1 || out.total_usage_seconds <= 0) throw new Error('no scaling');
    },
  ],
  [
    'list_schemas',
    {},
    (out) => {
      if (!['analytics', 'staging', 'marts'].every((s) => out.schemas.some((x: any) => x.schema === s)))
        throw new Error('schemas missing');
    },
  ],
  [
    'list_tables',
    { schema: 'analytics' },
    (out) => {
      if (out.tables.length < 5 || !out.tables.some((x: any) => x.table_name.startsWith('fact_')))
        throw new Error('no tables');
    },
  ],
  [
    'list_columns',
    { schema: 'analytics', table_name: 'fact_orders' },
    (out) => {
      if (!out.found || out.columns.length < 10 || out.columns[0].column_name !== 'order_id')
        throw new Error('no columns');
    },
  ],
];

for (const [name, input, expectContent] of CONTENT) {
  test(`${name}: answers with content from the simulated cluster`, async (t) => {
    const out = await call(t, name, input);
    t.notThrows(() => expectContent(out));
  });
}

test('query_details: a query named by another tool is found with its text, steps and plan', async (t) => {
  const running = await call(t, 'running_queries', { state: 'running', limit: 100 });
  const select = running.queries.find((q: any) => q.query_text.startsWith('SELECT'));
  t.truthy(select, 'a SELECT executing now');
  const out = await call(t, 'query_details', { query_id: select.query_id });
  t.true(out.found);
  t.like(out.query, {
    query_id: select.query_id,
    user_name: select.user_name,
    queue: select.queue,
    status: 'running',
    end_time: null,
  });
  t.true(out.query.steps.some((step: any) => step.label === 'scan' && step.table_name));
  t.true(out.query.plan.some((line: string) => line.includes('XN Seq Scan')));
  t.is(Math.floor(out.query.exec_seconds), select.exec_seconds);
});

test('query_details: a finished load shows its insert step and timings', async (t) => {
  const slow = await call(t, 'slow_queries', { lookback_hours: 24, limit: 1 });
  const out = await call(t, 'query_details', { query_id: slow.finished[0].query_id });
  t.like(out.query, { status: 'success', user_name: slow.finished[0].user_name });
  t.is(out.query.steps.at(-1).label, 'insert');
  t.true(out.query.end_time > out.query.submitted_at);
});

test('query_details: an id the warehouse does not have is found=false, not an error', async (t) => {
  t.deepEqual(await call(t, 'query_details', { query_id: 42 }), { found: false, query: null });
});

test('explain_query: a SELECT over the catalogue gets a plan and notes on its costly steps', async (t) => {
  const out = await call(t, 'explain_query', {
    sql: 'SELECT f.customer_id, SUM(f.amount) FROM analytics.fact_orders f JOIN analytics.fact_order_items i ON i.order_id = f.order_id GROUP BY 1 ORDER BY 2 DESC LIMIT 10;',
  });
  t.true(out.plan.length >= 5);
  t.regex(out.plan.join('\n'), /XN Hash Join DS_/);
  t.true(out.notes.length >= 1);
});

test('explain_query: anything but a single read-only SELECT is refused before the warehouse is asked', async (t) => {
  let asked = 0;
  const spy = {
    ...gateway,
    explain: async () => {
      asked += 1;
      return [];
    },
  };
  const explain = warehouseTools(spy).find((x) => x.name === 'explain_query')!;
  for (const sql of [
    'DELETE FROM analytics.fact_orders',
    'SELECT 1; DROP TABLE analytics.fact_orders',
    "SELECT 'x\\'; DROP TABLE t; --'",
    'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d',
  ]) {
    await t.throwsAsync(explain.run(explain.input.parse({ sql }), scope()), {
      instanceOf: RefusedSqlError,
      message: /refused/,
    });
  }
  t.is(asked, 0);
});

test('explain_query: an unknown table is an error naming it', async (t) => {
  const explain = tool('explain_query');
  await t.throwsAsync(explain.run(explain.input.parse({ sql: 'SELECT * FROM analytics.no_such_table' }), scope()), {
    message: /no_such_table/,
  });
});

test('query text sent to the model is cut at the stated cap and flagged', async (t) => {
  const long = 'SELECT ' + 'x, '.repeat(1000) + '1';
  const running = [
    {
      cluster_id: 'c',
      query_id: 1,
      pid: 2,
      user_name: 'u',
      database: 'd',
      queue: 'q',
      state: 'running' as const,
      submitted_at: NOW.toISOString(),
      queue_seconds: 0,
      exec_seconds: 9,
      query_text: long,
    },
  ];
  const stub = warehouseTools({ ...gateway, runningQueries: async () => running }).find(
    (x) => x.name === 'running_queries',
  )!;
  const out = (await stub.run(stub.input.parse({}), scope())) as any;
  t.is(out.queries[0].query_text.length, QUERY_TEXT_CAP + 1);
  t.true(out.queries[0].query_text_truncated);
});

const BAD_INPUT: [string, unknown][] = [
  ['cluster_overview', { verbose: true }],
  ['node_storage', { cluster_id: '../other-env' }],
  ['running_queries', { limit: 0 }],
  ['running_queries', { limit: 101 }],
  ['running_queries', { state: 'sleeping' }],
  ['running_queries', { user_name: "x' OR '1'='1" }],
  ['slow_queries', { lookback_hours: 0 }],
  ['slow_queries', { lookback_hours: 169 }],
  ['slow_queries', { lookback_hours: 2.5 }],
  ['query_details', {}],
  ['query_details', { query_id: -1 }],
  ['query_details', { query_id: '123' }],
  ['explain_query', {}],
  ['explain_query', { sql: '' }],
  ['explain_query', { sql: 'x'.repeat(20_001) }],
  ['wlm_queue_waits', { lookback_hours: 1000 }],
  ['disk_spill', { limit: 21 }],
  ['table_health', { schema: 'analytics; drop table x' }],
  ['table_health', { order_by: 'random()' }],
  ['table_storage', { table_name: '1abc' }],
  ['table_alerts', { event_contains: '' }],
  ['lock_waits', { cluster_id: 'a cluster' }],
  ['commit_queue', { limit: 50 }],
  ['load_errors', { table_name: 'stg"orders' }],
  ['user_workload', { user_name: '' }],
  ['concurrency_scaling_usage', { lookback_hours: -1 }],
  ['list_schemas', { schema: 'analytics' }],
  ['list_tables', {}],
  ['list_tables', { schema: 'analytics', name_contains: '%' }],
  ['list_columns', { schema: 'analytics' }],
  ['list_columns', { schema: 'analytics', table_name: 'fact orders' }],
];

for (const [name, input] of BAD_INPUT) {
  test(`${name} refuses ${JSON.stringify(input).slice(0, 60)}`, (t) => {
    t.false(tool(name).input.safeParse(input).success);
  });
}

test('each environment sees only its own warehouse', async (t) => {
  const mine = await call(t, 'list_schemas', {}, ENV);
  const theirs = await call(t, 'list_schemas', {}, 'env-b');
  const clusters = (out: any) => new Set(out.schemas.map((s: any) => s.cluster_id));
  for (const cluster of clusters(mine)) t.false(clusters(theirs).has(cluster));
});

test('a paused simulated warehouse fails the tools with the paused error (the loop reports it to the model)', async (t) => {
  const paused = createSimulatedWarehouse({ now: () => NOW });
  paused.control.setPaused(ENV, true);
  const overview = warehouseTools(paused.gateway).find((x) => x.name === 'lock_waits')!;
  await t.throwsAsync(overview.run(overview.input.parse({}), scope()), {
    name: 'WarehouseUnavailableError',
    message: /paused/,
  });
});

// The output schemas must describe every field the tools send (strict parse finds extra ones).
test('outputs carry only fields their schema names', async (t) => {
  for (const each of tools) {
    const output = await each.run(each.input.parse(each.example), scope());
    // Parsing strips unknown keys: what is left must be the whole answer.
    t.deepEqual(each.output.parse(output), output, `${each.name} sends fields its output schema does not name`);
  }
});

test("every tool's example answers in any environment, not only in the one the tests use", async (t) => {
  // The examples are what the tool listing shows and what the model is likely to copy: they must
  // hold in every simulated warehouse (40 environments: clusters of every role and size).
  for (let i = 0; i < 40; i++) {
    const envId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    for (const each of tools) {
      const answer = await each.run(each.input.parse(each.example), scope(envId)).catch((error: Error) => error);
      t.false(answer instanceof Error, `${each.name} in ${envId}: ${(answer as Error).message}`);
    }
  }
});

test("explain_query: a relation outside the environment's schemas is an error naming it (the adapter refuses it; issue 25)", async (t) => {
  // The simulated adapter refuses as the Redshift one does (warehouse-redshift-diagnostics.test.ts:
  // before any statement); the tool asks nothing else of the warehouse first (no schema listing,
  // which reads views a plain Redshift user may not see).
  const asked: string[] = [];
  const spy = new Proxy(gateway, {
    get: (target, name: string) => {
      asked.push(name);
      return (target as never)[name];
    },
  });
  const explain = warehouseTools(spy).find((x) => x.name === 'explain_query')!;
  const schemas = (await gateway.schemas(ENV)).map((entry) => entry.schema);
  t.true(schemas.includes('analytics') && !schemas.includes('tenant_b'));
  const refusals: [string, RegExp][] = [
    [
      'SELECT * FROM tenant_b.customers_pii',
      /tenant_b\.customers_pii is not in this environment's schemas \(.*analytics.*\); see list_schemas/,
    ],
    [
      'SELECT * FROM analytics.fact_orders o JOIN tenant_b.customers_pii c ON c.id = o.customer_id',
      /tenant_b\.customers_pii is not/,
    ],
    [
      'SELECT * FROM analytics.fact_orders WHERE customer_id IN (SELECT id FROM "TENANT_B".customers_pii)',
      /TENANT_B\.customers_pii/,
    ],
    ['WITH x AS (SELECT * FROM tenant_b.customers_pii) SELECT * FROM x', /tenant_b\.customers_pii/],
    [
      'WITH customers_pii AS (SELECT * FROM customers_pii) SELECT * FROM customers_pii',
      /customers_pii \(name its schema\)/,
    ],
    ['SELECT * FROM otherdb.analytics.fact_orders', /otherdb\.analytics\.fact_orders/],
    ['SELECT * FROM customers_pii', /customers_pii \(name its schema\)/],
  ];
  for (const [sql, reason] of refusals) {
    await t.throwsAsync(
      explain.run(explain.input.parse({ sql }), scope()),
      { instanceOf: RefusedSqlError, message: reason },
      sql,
    );
  }
  await explain.run(
    explain.input.parse({
      sql: 'WITH recent AS (SELECT * FROM analytics.fact_orders) SELECT * FROM recent JOIN "ANALYTICS".fact_order_items USING (order_id)',
    }),
    scope(),
  );
  t.deepEqual(
    [...new Set(asked)],
    ['explain'],
    'CTE names and the environment schema in any case are fine; only explain is asked',
  );
});
