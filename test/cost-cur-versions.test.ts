import test from 'ava';
import { costTools } from '../src/assistant/tools/cost/index.js';
import { REFRESH_WARNING } from '../src/assistant/tools/cost/cost-range.js';
import { createAthenaCostStore, type AthenaCostStoreOptions } from '../src/gateways/cost/athena/athena-cost-store.js';
import { billingMonths, partitionPredicate } from '../src/gateways/cost/athena/cur-layout.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import { CostQueryError, type CostPort, type EnvironmentScope } from '../src/gateways/cost/port.js';
import {
  curAnswerer,
  standinStoreOptions,
  startAthenaStandin,
  type AthenaStandin,
  type StandinCurTable,
} from './support/athena-standin.js';
import { scopeOf } from './support/assistant-fixtures.js';

/**
 * The Athena adapter over both Cost and Usage Report tables: CUR 1 (a column per tag, partitions
 * year/month) and CUR 2.0 (the resource_tags map, partition billing_period), each served by the
 * stand-in with the same line items. Issue 26, item 3.
 */

const scope: EnvironmentScope = { tenantId: 'tenant-a', environmentId: 'env-prod' };
const october = { from: '2026-10-01', to: '2026-10-31' };
const NOW = new Date('2026-11-24T12:00:00Z');

async function setUp(table: Partial<StandinCurTable> = {}, options: Partial<AthenaCostStoreOptions> = {}) {
  const standin = await startAthenaStandin();
  standin.script(curAnswerer({ tenantId: scope.tenantId, table: 'cur', ...table }));
  const clock = { now: 0 };
  const store = createAthenaCostStore({ ...standinStoreOptions(standin.url, clock), ...options });
  return { standin, store, advance: (ms: number) => (clock.now += ms) };
}

const costQuestions = (standin: AthenaStandin) =>
  standin.queries.filter((query) => !/cost-question: (table-columns|data-status)/.test(query.sql));

test('on a CUR 2.0 table the adapter reads the environment tag with element_at and answers what the embedded bill answers', async (t) => {
  const { standin, store } = await setUp({ version: 2 });
  t.teardown(() => standin.close());
  t.deepEqual(await store.costByService(scope, october), await createEmbeddedCostStore().costByService(scope, october));
  const [query] = costQuestions(standin);
  t.regex(query?.sql ?? '', /WHERE element_at\(resource_tags, 'user_environment_id'\) = \?/);
  t.notRegex(query?.sql ?? '', /resource_tags_user/);
});

test('the CUR 2.0 stand-in refuses a CUR 1 tag column as Athena does (COLUMN_NOT_FOUND)', async (t) => {
  const { standin, store } = await setUp({ version: 2 }, { curVersion: 1 });
  t.teardown(() => standin.close());
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'failed');
  t.regex(error?.reason ?? '', /^COLUMN_NOT_FOUND: Column 'resource_tags_user_environment_id' cannot be resolved/);
});

test('the CUR 1 stand-in refuses the CUR 2.0 map column', async (t) => {
  const { standin, store } = await setUp({ version: 1 }, { curVersion: 2 });
  t.teardown(() => standin.close());
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.regex(error?.reason ?? '', /^COLUMN_NOT_FOUND: Column 'resource_tags' cannot be resolved/);
});

test('the version is detected once from information_schema, on the first question, and kept', async (t) => {
  const { standin, store } = await setUp({ version: 2 });
  t.teardown(() => standin.close());
  await store.costByService(scope, october);
  await store.redshiftBreakdown(scope, october);
  await store.costTrend(scope, { ...october, granularity: 'daily' });
  const detections = standin.queries.filter((query) => query.sql.includes('information_schema.columns'));
  t.is(detections.length, 1);
  t.deepEqual(detections[0]?.parameters, ["'billing'", "'cur'"]);
  t.is(costQuestions(standin).length, 3);
});

test('a failed detection is not kept: the next question detects again', async (t) => {
  const { standin, store } = await setUp({ version: 2 });
  t.teardown(() => standin.close());
  const answer = curAnswerer({ tenantId: scope.tenantId, table: 'cur', version: 2 });
  let refuse = true;
  standin.script((query) =>
    refuse && query.sql.includes('information_schema')
      ? { type: 'InvalidRequestException', message: 'stand-in: refused once' }
      : answer(query),
  );
  await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  refuse = false;
  t.true((await store.costByService(scope, october)).length > 0);
  t.is(standin.queries.filter((query) => query.sql.includes('information_schema.columns')).length, 2);
});

test('a table information_schema does not know is a failure that names it', async (t) => {
  const { standin, store } = await setUp({ version: 2 }, { table: 'no_such_cur' });
  t.teardown(() => standin.close());
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.regex(error?.reason ?? '', /no_such_cur was not found/);
});

for (const version of [1, 2] as const) {
  test(`CUR ${version}: every question carries the partition predicate of exactly the months it reads`, async (t) => {
    const { standin, store } = await setUp({ version });
    t.teardown(() => standin.close());
    await store.costByService(scope, october);
    await store.costTrend(scope, { from: '2025-12-15', to: '2026-01-31', granularity: 'daily' });
    await store.forecastMonthEnd(scope, { asOf: '2026-11-03' });
    const [service, trend, forecast] = costQuestions(standin).map((query) => query.sql);
    if (version === 2) {
      t.regex(service ?? '', /\n {2}AND billing_period IN \('2026-10'\)\n/);
      t.regex(trend ?? '', /billing_period IN \('2025-12', '2026-01'\)/);
      t.regex(forecast ?? '', /billing_period IN \('2026-10', '2026-11'\)/);
    } else {
      t.regex(service ?? '', /\n {2}AND \(\(year = '2026' AND month IN \('10'\)\)\)\n/);
      t.regex(
        trend ?? '',
        /\(\(year = '2025' AND month IN \('12'\)\) OR \(year = '2026' AND month IN \('1', '01'\)\)\)/,
      );
      t.regex(forecast ?? '', /year = '2026' AND month IN \('10'\)\) OR \(year = '2026' AND month IN \('11'\)/);
    }
  });
}

test('the stand-in refuses a question without a partition predicate', async (t) => {
  const standin = await startAthenaStandin();
  t.teardown(() => standin.close());
  const answer = curAnswerer({ tenantId: scope.tenantId, table: 'cur', version: 2 });
  const sql = [
    '-- cost-question: cost-by-service',
    'SELECT 1',
    'FROM "cur"',
    "WHERE element_at(resource_tags, 'user_environment_id') = ?",
  ].join('\n');
  const reply = answer({ id: 'q', sql, parameters: ["'env-prod'", "'2026-10-01'", "'2026-10-31'"] });
  t.like(reply, { outcome: 'FAILED' });
  t.regex((reply as { reason?: string }).reason ?? '', /no partition predicate/);
});

test('billing months cover a range month by month, across a year end', (t) => {
  t.deepEqual(billingMonths('2025-11-30', '2026-02-01'), ['2025-11', '2025-12', '2026-01', '2026-02']);
  t.deepEqual(billingMonths('2026-10-05', '2026-10-05'), ['2026-10']);
  const layout = { environmentColumn: 'c', environmentTag: 't', partitioned: false } as const;
  t.is(
    partitionPredicate({ ...layout, version: 2 }, october),
    undefined,
    'a table found without partition columns gets none',
  );
});

test('a detected table without its partition columns is queried without a predicate', async (t) => {
  const { standin, store } = await setUp({ version: 2 });
  t.teardown(() => standin.close());
  const answer = curAnswerer({ tenantId: scope.tenantId, table: 'cur', version: 2 });
  standin.script((query) =>
    query.sql.includes('information_schema')
      ? { columns: [{ name: 'column_name', type: 'varchar' }], rows: [['line_item_unblended_cost'], ['resource_tags']] }
      : answer(query),
  );
  await t.throwsAsync(store.costByService(scope, october));
  t.notRegex(costQuestions(standin)[0]?.sql ?? '', /billing_period/);
});

test('the environment tag key is a string literal, validated: a key with a quote is refused when the store is built', (t) => {
  const base = {
    region: 'us-east-1',
    database: 'billing',
    table: 'cur',
    workGroup: 'wg',
    outputLocation: 's3://results/',
  };
  t.throws(() => createAthenaCostStore({ ...base, environmentTag: "env') OR ('1'='1" }), { message: /tag key/ });
  t.throws(() => createAthenaCostStore({ ...base, environmentTag: 'x'.repeat(129) }), { message: /tag key/ });
  t.notThrows(() => createAthenaCostStore({ ...base, environmentTag: 'user_cost:env-id' }));
});

test('a custom tag key reaches both versions: resource_tags_<key> on CUR 1, element_at on CUR 2.0', async (t) => {
  for (const version of [1, 2] as const) {
    const { standin, store } = await setUp({ version, environmentTag: 'user_stage' }, { environmentTag: 'user_stage' });
    t.teardown(() => standin.close());
    t.true((await store.costByService(scope, october)).length > 0);
    t.regex(
      costQuestions(standin)[0]?.sql ?? '',
      version === 2 ? /element_at\(resource_tags, 'user_stage'\)/ : /"resource_tags_user_stage"/,
    );
  }
});

/** The six cost tools answer identically on a CUR 1 table, a CUR 2.0 table and the embedded bill. */
test('table-driven: the six cost tools give the same answers on CUR 1, CUR 2.0 and the embedded bill', async (t) => {
  const stores: [string, CostPort][] = [['embedded', createEmbeddedCostStore()]];
  for (const version of [1, 2] as const) {
    const { standin, store } = await setUp({ version, pageSize: 7 });
    t.teardown(() => standin.close());
    stores.push([`CUR ${version}`, store]);
  }
  const answers = await Promise.all(
    stores.map(async ([name, store]) => {
      const results: Record<string, unknown> = {};
      for (const tool of costTools(store)) {
        results[tool.name] = await tool.run(
          tool.input.parse(tool.example),
          scopeOf(scope.tenantId, scope.environmentId, NOW),
        );
        results[`${tool.name} (other environment)`] = await tool.run(
          tool.input.parse(tool.example),
          scopeOf(scope.tenantId, 'env-dev', NOW),
        );
      }
      return [name, results] as const;
    }),
  );
  const [first, ...athena] = answers;
  const embedded = first![1];
  t.is(Object.keys(embedded).length, 12);
  for (const [name, results] of athena) t.deepEqual(results, embedded, `${name} answers as the embedded bill does`);
});

for (const version of [1, 2] as const) {
  test(`CUR ${version}: while cost_and_usage_data_status says UPDATING every cost tool answers with a warning`, async (t) => {
    const { standin, store } = await setUp({ version, status: 'UPDATING' });
    t.teardown(() => standin.close());
    for (const tool of costTools(store)) {
      const output = (await tool.run(
        tool.input.parse(tool.example),
        scopeOf(scope.tenantId, scope.environmentId, NOW),
      )) as { warning?: string };
      t.is(output.warning, REFRESH_WARNING, tool.name);
      t.true(tool.output.safeParse(output).success, `${tool.name} output matches its schema`);
    }
    t.is(
      standin.queries.filter((query) => query.sql.includes('cost_and_usage_data_status')).length,
      1,
      'the status is read once a minute, not per question',
    );
  });
}

test('a READY report, or one without a status table, answers without a warning', async (t) => {
  for (const status of ['READY', null] as const) {
    const { standin, store } = await setUp({ version: 2, status });
    t.teardown(() => standin.close());
    const [tool] = costTools(store);
    const output = (await tool!.run(
      tool!.input.parse(tool!.example),
      scopeOf(scope.tenantId, scope.environmentId, NOW),
    )) as { warning?: string; services: unknown[] };
    t.is(output.warning, undefined);
    t.true(output.services.length > 0);
  }
});

test('the refresh status is read again after a minute', async (t) => {
  const { standin, store, advance } = await setUp({ version: 1, status: 'UPDATING' });
  t.teardown(() => standin.close());
  t.deepEqual(await store.dataStatus(), { state: 'updating' });
  standin.script(curAnswerer({ tenantId: scope.tenantId, table: 'cur', version: 1, status: 'READY' }));
  t.deepEqual(await store.dataStatus(), { state: 'updating' }, 'cached');
  advance(60_000);
  t.deepEqual(await store.dataStatus(), { state: 'ready' });
});
