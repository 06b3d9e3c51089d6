/**
 * The evaluator in a cluster: members that split the share keys between them evaluate every rule
 * exactly once per tick and read each (environment, cluster, metric, window) once between them.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ownerOf } from '../src/cluster/membership.js';
import { ruleShareBucket, ruleShareKey } from '../src/events/rule-shares.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import { nextGridInstant } from '../src/process/evaluator-schedule.js';
import { alertRuleData, evaluatorStores } from './support/evaluator-stores.js';

const METRICS = ['queue_time_seconds', 'disk_spill_gb', 'cpu_utilization_pct'];
const WINDOWS = [0, 5, 15];

test('two members splitting the share keys evaluate each rule once and read each combination once', async (t) => {
  const { eventStore, readStore, logger, ruleChanges, runner, createRules } = await evaluatorStores('eval-shares-');
  const now = () => new Date('2026-11-20T12:00:00Z');
  const simulated = createSimulatedWarehouse({ now });
  const tenantId = randomUUID();
  // A fixed environment: which member owns which combination is then the same on every run.
  const envId = '00000000-0000-4000-8000-0000000000e1';
  // Given 90 rules over 3 metrics × 3 windows (9 combinations; windows 0 and 1 read the same minute),
  // all breaching: each evaluation starts a pending clock or triggers, so each one is recorded.
  const last = await createRules(
    tenantId,
    now(),
    Array.from({ length: 90 }, (_, i) =>
      alertRuleData(envId, {
        name: `r${i}`,
        metric: METRICS[i % 3]!,
        threshold: -1,
        evaluationWindowMinutes: WINDOWS[Math.floor(i / 3) % 3]!,
        severity: 'low',
      }),
    ),
  );
  const member = (self: string) => {
    const metrics = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });
    return createEvaluator({
      eventStore,
      now,
      reader: readStore,
      ruleChanges,
      metrics,
      logger,
      instruments: createEvaluatorInstruments(new Registry()),
      waitForProjections: (p) => runner.waitFor(p, 5000),
      owns: (key) => ownerOf(key, ['a', 'b']) === self,
    });
  };
  // When both members tick once
  const [a, b] = await Promise.all([member('a').tick(), member('b').tick()]);
  // Then every rule was evaluated by exactly one of them, each combination read once in all
  t.is(a.rules + b.rules, 90);
  t.true(a.rules > 0 && b.rules > 0, `a=${a.rules} b=${b.rules}: both took a share`);
  t.is(a.metricReads + b.metricReads, 9);
  const evaluated = new Map<string, number>();
  for (const event of await eventStore.readAll({ after: last })) {
    if (event.type === 'RuleEvaluated')
      evaluated.set(String(event.data.ruleId), (evaluated.get(String(event.data.ruleId)) ?? 0) + 1);
  }
  t.is(evaluated.size, 90);
  t.true([...evaluated.values()].every((count) => count === 1));
  await runner.stop();
  await eventStore.close();
  await readStore.close();
});

test('rules sharing a warehouse read share a key and a bucket; rules reading differently do not share a key', (t) => {
  const rule = { envId: 'e', clusterId: null, metric: 'm', evaluationWindowMinutes: 5 };
  t.is(ruleShareKey(rule), ruleShareKey({ ...rule }));
  t.is(ruleShareBucket(rule), ruleShareBucket({ ...rule, clusterId: undefined }));
  t.is(
    ruleShareBucket({ ...rule, evaluationWindowMinutes: 0 }),
    ruleShareBucket({ ...rule, evaluationWindowMinutes: 1 }),
  );
  // A window of 0 reads the last minute, as a window of 1 does.
  t.is(ruleShareKey({ ...rule, evaluationWindowMinutes: 0 }), ruleShareKey({ ...rule, evaluationWindowMinutes: 1 }));
  for (const other of [{ envId: 'f' }, { clusterId: 'c1' }, { metric: 'n' }, { evaluationWindowMinutes: 15 }]) {
    t.not(ruleShareKey({ ...rule, ...other }), ruleShareKey(rule));
  }
});

for (const [after, interval, expected] of [
  ['2026-11-20T12:00:00.000Z', 60, '2026-11-20T12:01:00.000Z'],
  ['2026-11-20T12:00:59.999Z', 60, '2026-11-20T12:01:00.000Z'],
  ['2026-11-20T12:00:07.000Z', 5, '2026-11-20T12:00:10.000Z'],
  ['2026-11-20T12:59:30.000Z', 3600, '2026-11-20T13:00:00.000Z'],
] as const) {
  test(`ticks start on the interval's grid: after ${after} every ${interval} s comes ${expected}`, (t) => {
    t.is(new Date(nextGridInstant(Date.parse(after), interval * 1000)).toISOString(), expected);
  });
}
