/** The evaluator on its own: a failing evaluation write is counted and logged, never a crash. */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { alertRulesProjection } from '../projections/alert-rules.js';
import { incidentsProjection } from '../projections/incidents.js';
import type { EventStore } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';

test('evaluation writes that fail while other rules are still acting are counted, not fatal', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-'));
  const real = openSqliteEventStore({ filename: join(dir, 'e.db') });
  const readStore = openSqliteReadStore(join(dir, 'r.db'));
  const logger = pino({ level: 'silent' });
  const runner = createProjectionRunner({
    eventStore: real,
    readStore,
    projections: [alertRulesProjection, incidentsProjection],
    logger,
  });
  await runner.start();
  const now = () => new Date('2026-11-20T12:00:00Z');
  const simulated = createSimulatedWarehouse({ now });
  const metrics = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });
  const envId = randomUUID();
  simulated.control.pinMetric({ envId, metric: 'queue_time_seconds', value: 50, durationSeconds: 3600 });
  const tenantId = randomUUID();
  let last = 0n;
  for (const threshold of [10, 1e9]) {
    const ruleId = randomUUID();
    last = (
      await real.append(`alertRule-${ruleId}`, [
        {
          type: 'AlertRuleCreated',
          data: {
            ruleId,
            name: `t${threshold}`,
            description: null,
            metric: 'queue_time_seconds',
            condition: 'gt',
            threshold,
            evaluationWindowMinutes: 0,
            severity: 'low',
            escalationPolicyId: randomUUID(),
            clusterId: null,
            isEnabled: true,
            envId,
          },
          metadata: { tenantId, actor: 'test', correlationId: 'c', causationId: 'c', occurredAt: now().toISOString() },
        },
      ])
    ).position;
  }
  await runner.waitFor(last, 5000);
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
