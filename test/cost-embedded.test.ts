import test from 'ava';
import { detectAnomalies, forecastMonthEnd, type DailyServiceCost } from '../src/gateways/cost/analysis.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import { generateLineItems, injectedAnomalies } from '../src/gateways/cost/embedded/line-items.js';
import { addDays, type EnvironmentScope } from '../src/gateways/cost/port.js';

/** Properties of the generated bill and of the shared anomaly and forecast arithmetic. */

const prod: EnvironmentScope = { tenantId: 'tenant-a', environmentId: 'env-prod' };
const store = createEmbeddedCostStore();

test('the same environment always gets the same bill; another environment gets a different one', (t) => {
  const first = generateLineItems(prod, '2026-03-01', '2026-03-31');
  t.deepEqual(generateLineItems({ ...prod }, '2026-03-01', '2026-03-31'), first);
  t.notDeepEqual(generateLineItems({ ...prod, environmentId: 'env-dev' }, '2026-03-01', '2026-03-31'), first);
  t.notDeepEqual(generateLineItems({ ...prod, tenantId: 'tenant-b' }, '2026-03-01', '2026-03-31'), first);
  // A day's items do not depend on the range asked for, so overlapping questions agree.
  t.deepEqual(
    generateLineItems(prod, '2026-03-10', '2026-03-10'),
    first.filter((item) => item.day === '2026-03-10'),
  );
});

test('Redshift node hours are a whole number of ra3.4xlarge nodes × 24 h, billed at $3.26 an hour', (t) => {
  const nodeHours = generateLineItems(prod, '2026-10-01', '2026-10-01').find(
    (item) => item.usageType === 'USE1-Node:ra3.4xlarge',
  );
  t.truthy(nodeHours);
  const nodes = nodeHours!.usageAmount / 24 / (1 + (0.01 / 30) * 1004);
  t.true(Math.abs(nodes - Math.round(nodes)) < 1e-6 && nodes >= 2 && nodes <= 8);
  t.true(Math.abs(nodeHours!.cost - nodeHours!.usageAmount * 3.26) < 0.01);
});

test('weekdays cost more than weekends (weekly seasonality)', async (t) => {
  const daily = await store.costTrend(prod, { from: '2026-06-01', to: '2026-08-30', granularity: 'daily' });
  const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const weekday = mean(daily.filter((p) => !isWeekend(p.period)).map((p) => p.cost));
  const weekend = mean(daily.filter((p) => isWeekend(p.period)).map((p) => p.cost));
  t.true(weekday > weekend * 1.05);
});

test('every anomaly found was injected, and most injected spikes are found', async (t) => {
  let injected = 0;
  let found = 0;
  for (const environmentId of ['env-prod', 'env-dev', 'env-3', 'env-4', 'env-5']) {
    const scope = { tenantId: 'tenant-a', environmentId };
    const spikes = injectedAnomalies(scope, '2026-01-01', '2026-10-31');
    const detected = await store.anomalies(scope, {
      from: '2026-01-01',
      to: '2026-10-31',
      baselineDays: 28,
      threshold: 3,
    });
    for (const anomaly of detected) {
      t.true(
        spikes.some((s) => s.day === anomaly.date && s.service === anomaly.service),
        `${environmentId} ${anomaly.date} ${anomaly.service}`,
      );
      t.true(anomaly.deviations > 3);
    }
    injected += spikes.length;
    found += new Set(detected.map((a) => `${a.date}/${a.service}`)).size;
  }
  t.true(injected >= 10);
  t.true(found / injected >= 0.75, `${found} of ${injected}`);
});

const flat = (service: string, from: string, days: number, cost: (i: number) => number): DailyServiceCost[] =>
  Array.from({ length: days }, (_, i) => ({ day: addDays(from, i), service, cost: cost(i) }));

for (const [title, rows, expected] of [
  [
    'a spike far above a noisy baseline is flagged',
    flat('S', '2026-01-01', 15, (i) => (i === 14 ? 300 : 100 + (i % 2) * 10)),
    ['2026-01-15'],
  ],
  [
    'a drop far below the baseline is flagged too',
    flat('S', '2026-01-01', 15, (i) => (i === 14 ? 10 : 100 + (i % 2) * 10)),
    ['2026-01-15'],
  ],
  ['a perfectly flat baseline flags nothing', flat('S', '2026-01-01', 15, (i) => (i === 14 ? 101 : 100)), []],
  [
    'a change under 5% of the mean flags nothing, however small σ is',
    flat('S', '2026-01-01', 15, (i) => (i === 14 ? 104 : 100 + (i % 2) * 0.01)),
    [],
  ],
  [
    'a missing day counts as zero spend',
    flat('S', '2026-01-01', 15, (i) => 100 + (i % 2) * 10).filter((_, i) => i !== 14),
    ['2026-01-15'],
  ],
] as const) {
  test(`anomaly rule: ${title}`, (t) => {
    const found = detectAnomalies([...rows], { from: '2026-01-15', to: '2026-01-15', baselineDays: 14, threshold: 3 });
    t.deepEqual(
      found.map((a) => a.date),
      [...expected],
    );
  });
}

test('forecast: month-to-date actuals + trailing-7-day mean × days left', (t) => {
  const rows = flat('total', '2026-11-01', 23, (i) => (i < 16 ? 100 : 170)).map(({ day, cost }) => ({ day, cost }));
  const forecast = forecastMonthEnd(rows, '2026-11-23');
  t.like(forecast, {
    month: '2026-11',
    monthToDate: 16 * 100 + 7 * 170,
    trailingDailyMean: 170,
    remainingDays: 7,
    forecast: 2790 + 7 * 170,
  });
});

test('forecast early in a month takes the trailing mean from the previous month; on the last day nothing remains', (t) => {
  const rows = flat('total', '2026-10-26', 9, (i) => (i < 6 ? 70 : 140)).map(({ day, cost }) => ({ day, cost }));
  const early = forecastMonthEnd(rows, '2026-11-03');
  t.like(early, {
    monthToDate: 420,
    trailingDailyMean: (4 * 70 + 3 * 140) / 7,
    remainingDays: 27,
    forecast: 420 + 27 * 100,
  });
  const last = forecastMonthEnd(
    flat('t', '2026-02-01', 28, () => 10).map(({ day, cost }) => ({ day, cost })),
    '2026-02-28',
  );
  t.like(last, { monthToDate: 280, remainingDays: 0, forecast: 280 });
});

test('the embedded forecast matches the formula over its own daily trend', async (t) => {
  const daily = await store.costTrend(prod, { from: '2026-11-01', to: '2026-11-23', granularity: 'daily' });
  const forecast = await store.forecastMonthEnd(prod, { asOf: '2026-11-23' });
  const mtd = daily.reduce((sum, p) => sum + p.cost, 0);
  const trailing = daily.slice(-7).reduce((sum, p) => sum + p.cost, 0) / 7;
  t.true(Math.abs(forecast.monthToDate - mtd) < 0.05);
  t.true(Math.abs(forecast.forecast - (mtd + trailing * 7)) < 0.1);
});
