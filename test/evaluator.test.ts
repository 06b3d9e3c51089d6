/**
 * The evaluator on its own: a failing evaluation write is counted and logged, never a crash; the
 * first tick over new rules writes only the evaluations the history needs.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ALERT_RULES, type AlertRuleDoc } from '../projections/alert-rules.js';
import type { EventStore } from '../src/eventstore/port.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import { alertRuleData, evaluatorStores } from './support/evaluator-stores.js';

test('evaluation writes that fail while other rules are still acting are counted, not fatal', async (t) => {
  const { eventStore: real, readStore, logger, ruleChanges, runner, createRules } = await evaluatorStores('eval-');
  const now = () => new Date('2026-11-20T12:00:00Z');
  const simulated = createSimulatedWarehouse({ now });
  const metrics = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });
  const envId = randomUUID();
  simulated.control.pinMetric({ envId, metric: 'queue_time_seconds', value: 50, durationSeconds: 3600 });
  const tenantId = randomUUID();
  // One rule triggers at once, the other starts its pending clock: both evaluations are recorded.
  await createRules(
    tenantId,
    now(),
    [0, 5].map((window) =>
      alertRuleData(envId, { name: `w${window}`, threshold: 10, evaluationWindowMinutes: window, severity: 'low' }),
    ),
  );
  // Evaluation records fail at once; incident appends are slow, so the failure lands mid-tick.
  const faulty: EventStore = {
    ...real,
    append: async (stream, events, options) => {
      if (stream.startsWith('ruleEvaluations-')) throw new Error('event store unavailable');
      await new Promise((resolve) => setTimeout(resolve, 50));
      return real.append(stream, events, options);
    },
  };
  const evaluator = createEvaluator({
    eventStore: faulty,
    now,
    reader: readStore,
    ruleChanges,
    metrics,
    logger,
    instruments: createEvaluatorInstruments(new Registry()),
    waitForProjections: (p) => runner.waitFor(p, 5000),
  });
  const report = await evaluator.tick();
  t.is(report.rules, 2);
  t.is(report.triggered, 1, 'the incident was still created');
  t.is(report.errors, 2, 'both failed evaluation records are counted');
  await runner.stop();
  await real.close();
  await readStore.close();
});

test('the first tick after rules were created records only the evaluations that change something, not one per rule', async (t) => {
  const { eventStore, readStore, logger, ruleChanges, runner, createRules } = await evaluatorStores('eval-first-');
  t.teardown(async () => {
    await runner.stop();
    await eventStore.close();
    await readStore.close();
  });
  const now = () => new Date('2026-11-20T12:00:00Z');
  const simulated = createSimulatedWarehouse({ now });
  const envId = randomUUID();
  simulated.control.pinMetric({ envId, metric: 'queue_time_seconds', value: 50, durationSeconds: 3600 });
  const tenantId = randomUUID();
  // Given 40 rules created this minute: 38 quiet (threshold far above the reading), 2 breaching
  const last = await createRules(
    tenantId,
    now(),
    Array.from({ length: 40 }, (_, i) =>
      alertRuleData(envId, { name: `r${i}`, threshold: i < 2 ? 10 : 1e9, severity: 'low' }),
    ),
  );
  const evaluator = createEvaluator({
    eventStore,
    now,
    reader: readStore,
    ruleChanges,
    metrics: createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control }),
    logger,
    instruments: createEvaluatorInstruments(new Registry()),
    waitForProjections: (p) => runner.waitFor(p, 5000),
  });
  // When the evaluator's first tick runs
  const report = await evaluator.tick();
  // Then all 40 were evaluated, and only the 2 whose pending clock started were written to the log
  t.is(report.rules, 40);
  t.is(report.recorded, 2);
  const written = (await eventStore.readAll({ after: last })).filter((event) => event.type === 'RuleEvaluated');
  t.is(written.length, 2);
  // And the quiet rules' watch is what a recorded quiet evaluation would have made it: the initial one
  const quiet = await readStore.find<AlertRuleDoc>(ALERT_RULES, { threshold: 1e9 });
  t.true(quiet.every((doc) => doc.pendingSince === null && doc.health === 'ok' && doc.rearmed === true));
});
