import test from 'ava';
import { createAthenaCostStore } from '../src/gateways/cost/athena/athena-cost-store.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import type { CostPort, EnvironmentScope } from '../src/gateways/cost/port.js';
import { curAnswerer, standinStoreOptions, startAthenaStandin, type AthenaStandin } from './support/athena-standin.js';

/**
 * The cost port's contract, run against the embedded store and against the Athena adapter
 * talking to the stand-in (which answers from the same generated bill, in pages of 7 rows so
 * every multi-row answer crosses pages). Both must then agree answer for answer.
 */

const scope: EnvironmentScope = { tenantId: 'tenant-a', environmentId: 'env-prod' };
const october = { from: '2026-10-01', to: '2026-10-31' };
let standin: AthenaStandin;

test.before(async () => {
  standin = await startAthenaStandin();
  standin.script(
    curAnswerer({
      tenantId: scope.tenantId,
      table: 'cur',
      environmentColumn: 'resource_tags_user_environment_id',
      pageSize: 7,
    }),
  );
});
test.after.always(async () => standin.close());

const athena = (): CostPort => createAthenaCostStore(standinStoreOptions(standin.url, { now: 0 }));

const adapters: [string, () => CostPort][] = [
  ['embedded', () => createEmbeddedCostStore()],
  ['athena', athena],
];

const cents = (value: number) =>
  Math.round(value * 100) === value * 100 || Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
const total = (rows: { cost: number }[]) => rows.reduce((sum, row) => sum + row.cost, 0);

for (const [name, make] of adapters) {
  test(`${name}: cost by service lists every service, largest first, in cents`, async (t) => {
    const services = await make().costByService(scope, october);
    t.deepEqual(services.map((s) => s.service).sort(), [
      'AWSDataTransfer',
      'AWSGlue',
      'AmazonCloudWatch',
      'AmazonEC2',
      'AmazonRedshift',
      'AmazonS3',
    ]);
    t.is(services[0]?.service, 'AmazonRedshift');
    t.true(services.every((s, i) => i === 0 || s.cost <= services[i - 1]!.cost));
    t.true(services.every((s) => cents(s.cost)));
  });

  test(`${name}: the daily trend has a point for every day and the monthly trend adds up to it`, async (t) => {
    const port = make();
    const daily = await port.costTrend(scope, { ...october, from: '2026-09-15', granularity: 'daily' });
    const monthly = await port.costTrend(scope, { ...october, from: '2026-09-15', granularity: 'monthly' });
    t.is(daily.length, 47);
    t.is(daily[0]?.period, '2026-09-15');
    t.deepEqual(
      monthly.map((p) => p.period),
      ['2026-09', '2026-10'],
    );
    t.true(Math.abs(total(daily) - total(monthly)) < 0.05);
  });

  test(`${name}: the Redshift breakdown covers node hours, managed storage, concurrency scaling and Spectrum`, async (t) => {
    const port = make();
    const breakdown = await port.redshiftBreakdown(scope, october);
    t.deepEqual(breakdown.map((b) => b.usageType).sort(), [
      'USE1-CS:ra3.4xlarge',
      'USE1-Node:ra3.4xlarge',
      'USE1-RMS:GB-Month',
      'USE1-Spectrum:ScannedTB',
    ]);
    t.is(breakdown[0]?.usageType, 'USE1-Node:ra3.4xlarge');
    const redshift = (await port.costByService(scope, october)).find((s) => s.service === 'AmazonRedshift');
    t.true(Math.abs(total(breakdown) - (redshift?.cost ?? 0)) < 0.05);
  });

  test(`${name}: top cost drivers returns at most N pairs, largest first`, async (t) => {
    const drivers = await make().topCostDrivers(scope, { ...october, limit: 3 });
    t.is(drivers.length, 3);
    t.deepEqual(drivers[0], { service: 'AmazonRedshift', usageType: 'USE1-Node:ra3.4xlarge', cost: drivers[0]!.cost });
    t.true(drivers.every((d, i) => i === 0 || d.cost <= drivers[i - 1]!.cost));
  });

  test(`${name}: anomalies are days far from their service's trailing mean`, async (t) => {
    const anomalies = await make().anomalies(scope, { from: '2026-01-01', to: '2026-10-31', threshold: 3 });
    t.true(anomalies.length > 0);
    for (const a of anomalies) t.true(Math.abs(a.cost - a.baselineMean) > 3 * a.baselineStdDev - 0.02);
  });

  test(`${name}: the forecast is month-to-date plus the trailing mean for each remaining day`, async (t) => {
    const forecast = await make().forecastMonthEnd(scope, { asOf: '2026-11-23' });
    t.is(forecast.month, '2026-11');
    t.is(forecast.remainingDays, 7);
    t.true(Math.abs(forecast.forecast - (forecast.monthToDate + forecast.trailingDailyMean * 7)) < 0.05);
  });

  test(`${name}: malformed or unbounded questions are refused before anything runs`, async (t) => {
    const port = make();
    const before = standin.queries.length;
    await t.throwsAsync(port.costByService(scope, { from: '2025-01-01', to: '2026-03-01' }));
    await t.throwsAsync(port.costByService(scope, { from: '2026-10-31', to: '2026-10-01' }));
    await t.throwsAsync(port.costByService(scope, { from: '2026-02-30', to: '2026-03-01' }));
    await t.throwsAsync(port.costByService(scope, { from: "2026-01-01' OR 1=1 --", to: '2026-03-01' }));
    await t.throwsAsync(port.topCostDrivers(scope, { ...october, limit: 51 }));
    await t.throwsAsync(port.anomalies(scope, { ...october, threshold: 0 }));
    await t.throwsAsync(port.forecastMonthEnd(scope, { asOf: 'tomorrow' }));
    t.is(standin.queries.length, before);
  });
}

test('both adapters give the same answers to the same questions', async (t) => {
  const [embedded, remote] = [createEmbeddedCostStore(), athena()];
  const other: EnvironmentScope = { tenantId: scope.tenantId, environmentId: 'env-dev' };
  for (const who of [scope, other]) {
    t.deepEqual(await remote.costByService(who, october), await embedded.costByService(who, october));
    t.deepEqual(
      await remote.costTrend(who, { ...october, granularity: 'daily' }),
      await embedded.costTrend(who, { ...october, granularity: 'daily' }),
    );
    t.deepEqual(
      await remote.costTrend(who, { from: '2026-01-01', to: '2026-10-31', granularity: 'monthly' }),
      await embedded.costTrend(who, { from: '2026-01-01', to: '2026-10-31', granularity: 'monthly' }),
    );
    t.deepEqual(await remote.redshiftBreakdown(who, october), await embedded.redshiftBreakdown(who, october));
    t.deepEqual(
      await remote.topCostDrivers(who, { ...october, limit: 5 }),
      await embedded.topCostDrivers(who, { ...october, limit: 5 }),
    );
    const anomalyQuestion = { from: '2026-01-01', to: '2026-10-31', baselineDays: 21, threshold: 3 };
    t.deepEqual(await remote.anomalies(who, anomalyQuestion), await embedded.anomalies(who, anomalyQuestion));
    t.deepEqual(
      await remote.forecastMonthEnd(who, { asOf: '2026-11-03' }),
      await embedded.forecastMonthEnd(who, { asOf: '2026-11-03' }),
    );
  }
});
