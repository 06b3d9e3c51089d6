import { AthenaClient } from '@aws-sdk/client-athena';
import test from 'ava';
import { createAthenaCostStore, type AthenaCostStoreOptions } from '../src/gateways/cost/athena/athena-cost-store.js';
import { runAthenaQuery } from '../src/gateways/cost/athena/athena-runner.js';
import { CostQueryError, type EnvironmentScope } from '../src/gateways/cost/port.js';
import {
  curAnswerer,
  standinStoreOptions,
  startAthenaStandin,
  type AthenaStandin,
  type QueryScript,
} from './support/athena-standin.js';

/** Athena-specific behaviour of the cost adapter, through the real client against the stand-in. */

const scope: EnvironmentScope = { tenantId: 'tenant-a', environmentId: 'env-prod' };
const october = { from: '2026-10-01', to: '2026-10-31' };
const credentials = { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin-secret' };
const answerCur = curAnswerer({
  tenantId: scope.tenantId,
  table: 'cur',
  environmentColumn: 'resource_tags_user_environment_id',
});

// Each test gets its own stand-in so scripts and recordings never mix under concurrency. The
// version is configured and the status table off, so each question is exactly one query here
// (detection and the refresh status are tested in cost-cur-versions.test.ts).
async function setUp(extra: Partial<AthenaCostStoreOptions> = {}) {
  const standin = await startAthenaStandin();
  const clock = { now: 0, sleeps: [] as number[] };
  const store = createAthenaCostStore({
    ...standinStoreOptions(standin.url, clock),
    curVersion: 1,
    statusTable: null,
    ...extra,
  });
  return { standin, clock, store };
}

const closing = (standin: AthenaStandin) => () => standin.close();

test('a query runs in the configured work group, database and output location, with the environment and dates as parameters', async (t) => {
  const { standin, store } = await setUp();
  t.teardown(closing(standin));
  standin.script(answerCur);
  await store.costByService(scope, october);
  const [query] = standin.queries;
  t.is(query?.workGroup, 'analytics');
  t.is(query?.database, 'billing');
  t.is(query?.outputLocation, 's3://cost-results/athena/');
  t.deepEqual(query?.parameters, ["'env-prod'", "'2026-10-01'", "'2026-10-31'"]);
  t.regex(query?.sql ?? '', /FROM "cur"\nWHERE "resource_tags_user_environment_id" = \?/);
  t.regex(query?.sql ?? '', /SUM\(line_item_unblended_cost\)/);
  t.deepEqual(standin.operations.slice(0, 4), [
    'StartQueryExecution',
    'GetQueryExecution',
    'GetQueryExecution',
    'GetQueryExecution',
  ]);
});

test('an environment id containing a quote travels as an escaped literal, never as SQL', async (t) => {
  const { standin, store } = await setUp();
  t.teardown(closing(standin));
  standin.script(answerCur);
  await store.costByService({ tenantId: 'tenant-a', environmentId: "o'brien' OR '1'='1" }, october);
  t.is(standin.queries[0]?.parameters[0], "'o''brien'' OR ''1''=''1'");
  t.false(standin.queries[0]?.sql.includes('brien'));
});

test('results spanning several pages are all read, with the header row skipped on the first page only', async (t) => {
  const { standin, store } = await setUp({ pageSize: 2 });
  t.teardown(closing(standin));
  standin.script((query) => ({ ...(answerCur(query) as QueryScript), pageSize: 2 }));
  const services = await store.costByService(scope, october);
  t.is(services.length, 6);
  t.false(services.some((s) => s.service === 'service'));
  t.is(standin.operations.filter((op) => op === 'GetQueryResults').length, 3);
});

test('values convert by the column types Athena declares; a missing value is null', async (t) => {
  const standin = await startAthenaStandin();
  t.teardown(closing(standin));
  standin.script(() => ({
    columns: [
      { name: 'name', type: 'varchar' },
      { name: 'hours', type: 'bigint' },
      { name: 'cost', type: 'double' },
      { name: 'billed', type: 'decimal(18,2)' },
      { name: 'paused', type: 'boolean' },
      { name: 'day', type: 'date' },
      { name: 'note', type: 'varchar' },
    ],
    rows: [['ra3', 96, 312.96, '1.50', false, '2026-10-01', null]],
  }));
  const client = new AthenaClient({ region: 'us-east-1', endpoint: standin.url, credentials });
  const rows = await runAthenaQuery(
    {
      client,
      database: 'billing',
      workGroup: 'analytics',
      outputLocation: 's3://r/',
      now: () => 0,
      sleep: async () => {},
    },
    'SELECT 1',
    [],
  );
  t.deepEqual(rows, [
    { name: 'ra3', hours: 96, cost: 312.96, billed: 1.5, paused: false, day: '2026-10-01', note: null },
  ]);
});

test("a FAILED query raises a typed error carrying Athena's reason", async (t) => {
  const { standin, store } = await setUp();
  t.teardown(closing(standin));
  standin.script(() => ({
    outcome: 'FAILED',
    reason: "TABLE_NOT_FOUND: line 3:6: Table 'billing.cur' does not exist",
  }));
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'failed');
  t.regex(error?.reason ?? '', /TABLE_NOT_FOUND/);
});

test('a CANCELLED query raises a cancelled error', async (t) => {
  const { standin, store } = await setUp();
  t.teardown(closing(standin));
  standin.script(() => ({ outcome: 'CANCELLED', reason: 'Query cancelled by user' }));
  const error = await t.throwsAsync(store.redshiftBreakdown(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'cancelled');
  t.is(error?.reason, 'Query cancelled by user');
});

test('a query still running at the deadline times out and is stopped; polls back off up to the cap', async (t) => {
  const { standin, store, clock } = await setUp({ timeoutMs: 10_000, firstPollMs: 200, maxPollMs: 2_000 });
  t.teardown(closing(standin));
  standin.script(() => ({ runningPolls: 1_000 }));
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'timeout');
  t.deepEqual(clock.sleeps, [200, 400, 800, 1600, 2000, 2000, 2000, 1000]);
  t.deepEqual(standin.stopped, ['query-1']);
});

test('a start Athena rejects (InvalidRequestException) is a typed failure with its message', async (t) => {
  const { standin, store } = await setUp();
  t.teardown(closing(standin));
  standin.script(() => ({ type: 'InvalidRequestException', message: 'line 1:8: mismatched input' }));
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'failed');
  t.regex(error?.reason ?? '', /mismatched input/);
});

test('an unreachable endpoint is a typed unavailable error', async (t) => {
  const { standin, store } = await setUp();
  await standin.close();
  const error = await t.throwsAsync(store.costByService(scope, october), { instanceOf: CostQueryError });
  t.is(error?.failure, 'unavailable');
});

const base = { region: 'us-east-1', database: 'billing', workGroup: 'wg', outputLocation: 's3://results/' };
for (const [what, options] of [
  ['a table name with SQL in it', { ...base, table: 'cur"; DROP TABLE x; --' }],
  ['an environment column with a space', { ...base, table: 'cur', environmentColumn: 'env id' }],
  ['an output location that is not S3', { ...base, table: 'cur', outputLocation: 'http://example.com/' }],
] as const) {
  test(`configuration refuses ${what}`, (t) => {
    t.throws(() => createAthenaCostStore(options));
  });
}
