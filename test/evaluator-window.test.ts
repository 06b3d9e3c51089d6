/**
 * The evaluator over real embedded stores with a virtual clock, one tick per virtual minute:
 * the pending window, re-arming after a manual resolve, the sweep of disabled rules, evaluation
 * errors (health and counter) and the resolutions counter. The pending clock lives in the read
 * model, so a fresh evaluator instance (a restart, another instance) continues it. The recorded
 * evaluations are the changes (src/process/evaluation-record.ts), each named with its tick: t0 is
 * the first tick after the world starts, one virtual minute each.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { incidentDecider } from '../commands/incidents.js';
import { ALERT_RULES, type AlertRuleDoc } from '../projections/alert-rules.js';
import { INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import type { AlertRuleData } from '../src/events/alert-rule.js';
import { incidentStream } from '../src/events/incident.js';
import { ruleEvaluationStream, type RuleEvaluatedData } from '../src/events/rule-evaluation.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import {
  createEvaluator,
  createEvaluatorInstruments,
  type Evaluator,
  type TickReport,
} from '../src/process/evaluator.js';
import { heartbeatOffsetMs, HISTORY_HEARTBEAT_MS } from '../src/process/evaluation-record.js';
import { evaluatorStores } from './support/evaluator-stores.js';

const METRIC = 'queue_time_seconds';

async function world(t: { teardown: (fn: () => Promise<void>) => void }) {
  const { eventStore, readStore, logger, ruleChanges, runner } = await evaluatorStores('eval-window-');
  const start = new Date('2026-11-20T12:00:00Z');
  let clock = start;
  const now = () => clock;
  const simulated = createSimulatedWarehouse({ now });
  const metrics = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });
  const registry = new Registry();
  const instruments = createEvaluatorInstruments(registry);
  const commandDeps = { eventStore, now, waitForProjections: (p: bigint) => runner.waitFor(p, 5000) };
  const newEvaluator = () =>
    createEvaluator({ ...commandDeps, reader: readStore, ruleChanges, metrics, logger, instruments });
  const envId = randomUUID();
  const tenantId = randomUUID();
  const metadata = () => ({
    tenantId,
    actor: 'test',
    correlationId: 'c',
    causationId: 'c',
    occurredAt: clock.toISOString(),
  });
  t.teardown(async () => {
    await runner.stop();
    await eventStore.close();
    await readStore.close();
  });

  const w = {
    envId,
    evaluator: newEvaluator(),
    newEvaluator,
    registry,
    pin: (value: number) => simulated.control.pinMetric({ envId, metric: METRIC, value, durationSeconds: 24 * 3600 }),
    pause: (paused: boolean) => simulated.control.setPaused(envId, paused),
    /** Moves the virtual clock one minute and runs one tick. */
    async tickAfterAMinute(evaluator?: Evaluator): Promise<TickReport> {
      clock = new Date(clock.getTime() + 60_000);
      return (evaluator ?? w.evaluator).tick();
    },
    async createRule(fields: Partial<AlertRuleData> = {}): Promise<AlertRuleData> {
      const rule: AlertRuleData = {
        ruleId: ruleIdWithLateHour(),
        name: 'queue',
        description: null,
        metric: METRIC,
        condition: 'gt',
        threshold: 30,
        evaluationWindowMinutes: 5,
        severity: 'high',
        escalationPolicyId: randomUUID(),
        clusterId: null,
        isEnabled: true,
        envId,
        ...fields,
      };
      const { position } = await eventStore.append(`alertRule-${rule.ruleId}`, [
        { type: 'AlertRuleCreated', data: rule, metadata: metadata() },
      ]);
      await runner.waitFor(position, 5000);
      return rule;
    },
    /** An update written straight to the log, as if the process died before resolving anything. */
    async updateRule(rule: AlertRuleData) {
      const { position } = await eventStore.append(`alertRule-${rule.ruleId}`, [
        { type: 'AlertRuleUpdated', data: rule, metadata: metadata() },
      ]);
      await runner.waitFor(position, 5000);
    },
    /** The recorded evaluations as `outcome@tick`. */
    async outcomes(ruleId: string) {
      return (await eventStore.readStream(ruleEvaluationStream(ruleId))).map((e) => {
        const { outcome, at } = e.data as RuleEvaluatedData;
        return `${outcome}@t${(Date.parse(at) - start.getTime()) / 60_000 - 1}`;
      });
    },
    incidents: (ruleId: string) => readStore.find<IncidentDoc>(INCIDENTS, { rule_id: ruleId }),
    rule: (ruleId: string) => readStore.get<AlertRuleDoc>(ALERT_RULES, ruleId),
    resolveManually: (incidentId: string) =>
      handleCommand(commandDeps, incidentDecider, {
        stream: incidentStream(incidentId),
        resourceName: 'incident',
        command: { kind: 'ResolveIncident', incidentId, reason: 'manual' },
        envelope: { tenantId, actor: 'user', correlationId: 'c', causationId: 'c' },
      }),
    async counter(name: string, labels: Record<string, string>) {
      const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
      const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
      return value?.value ?? 0;
    },
  };
  return w;
}

/**
 * A rule id whose hourly history entry (src/process/evaluation-record.ts: each rule's hour starts at
 * an offset hashed from its id) falls in the second half of the hour: the tests' ticks from 12:00
 * then see the rule's hour turn only where one waits an hour for it. A random id put the turn inside
 * a test's first minutes one time in ten, recording an extra `unchanged`.
 */
function ruleIdWithLateHour(): string {
  for (;;) {
    const id = randomUUID();
    if (heartbeatOffsetMs(id) >= HISTORY_HEARTBEAT_MS / 2) return id;
  }
}
test('window 5, one tick a minute: pending t0..t4, triggered at t5, continued by a fresh evaluator instance', async (t) => {
  const w = await world(t);
  w.pin(45);
  const rule = await w.createRule({ evaluationWindowMinutes: 5 });
  for (let i = 0; i < 3; i++) await w.tickAfterAMinute();
  const pendingSince = (await w.rule(rule.ruleId))!.pendingSince;
  t.truthy(pendingSince, 'the read model holds the pending clock');
  // A restart: nothing of the pending clock lives in the evaluator's memory.
  const restarted = w.newEvaluator();
  for (let i = 0; i < 3; i++) await w.tickAfterAMinute(restarted);
  // Recorded: the start of the pending run and the trigger (pending t1..t4 changed nothing).
  t.deepEqual(await w.outcomes(rule.ruleId), ['pending@t0', 'triggered@t5']);
  const [incident] = await w.incidents(rule.ruleId);
  t.like(incident, { status: 'triggered', current_value: 45 });
  t.is((await w.rule(rule.ruleId))!.pendingSince, null);
});

test('a dip while pending resets the clock; window 0 triggers on the first breach', async (t) => {
  const w = await world(t);
  w.pin(45);
  const rule = await w.createRule({ evaluationWindowMinutes: 3 });
  const immediate = await w.createRule({ evaluationWindowMinutes: 0, threshold: 40 });
  await w.tickAfterAMinute();
  await w.tickAfterAMinute();
  w.pin(10);
  await w.tickAfterAMinute();
  w.pin(45);
  for (let i = 0; i < 4; i++) await w.tickAfterAMinute();
  t.deepEqual(await w.outcomes(rule.ruleId), ['pending@t0', 'ok@t2', 'pending@t3', 'triggered@t6']);
  t.deepEqual((await w.outcomes(immediate.ruleId)).slice(0, 3), ['triggered@t0', 'unchanged@t1', 'resolved@t2']);
});

test('an evaluation error neither resets nor advances the pending clock', async (t) => {
  const w = await world(t);
  w.pin(45);
  const rule = await w.createRule({ evaluationWindowMinutes: 3 });
  await w.tickAfterAMinute();
  w.pause(true);
  await w.tickAfterAMinute();
  await w.tickAfterAMinute();
  await w.tickAfterAMinute();
  w.pause(false);
  await w.tickAfterAMinute();
  // Pending since t0; t4 is past t0 + 3 and breaching: the errors in between did not reset it.
  t.deepEqual(await w.outcomes(rule.ruleId), ['pending@t0', 'error@t1', 'triggered@t4']);
});

test('a manual resolve while the condition still holds does not re-trigger until the condition has cleared once', async (t) => {
  const w = await world(t);
  w.pin(45);
  const rule = await w.createRule({ evaluationWindowMinutes: 0, severity: 'critical' });
  await w.tickAfterAMinute();
  const [incident] = await w.incidents(rule.ruleId);
  await w.resolveManually(incident!.id);
  t.is((await w.rule(rule.ruleId))!.rearmed, false);
  await w.tickAfterAMinute();
  await w.tickAfterAMinute();
  t.is((await w.incidents(rule.ruleId)).length, 1, 'no new incident while the condition still holds');
  w.pin(10);
  await w.tickAfterAMinute();
  t.is((await w.rule(rule.ruleId))!.rearmed, true);
  w.pin(45);
  await w.tickAfterAMinute();
  // t1: unchanged without an incident (the manual resolve) is a change; t2 is the same as t1.
  t.deepEqual(await w.outcomes(rule.ruleId), ['triggered@t0', 'unchanged@t1', 'ok@t3', 'triggered@t4']);
  t.is((await w.incidents(rule.ruleId)).filter((i) => i.status === 'triggered').length, 1);
});

test('a rule disabled without its incident resolved (a crash) is swept with reason rule_disabled, counted with the incident severity', async (t) => {
  const w = await world(t);
  w.pin(45);
  const rule = await w.createRule({ evaluationWindowMinutes: 0, severity: 'critical' });
  await w.tickAfterAMinute();
  await w.updateRule({ ...rule, isEnabled: false, severity: 'low' });
  const report = await w.tickAfterAMinute();
  t.is(report.rules, 0);
  const [incident] = await w.incidents(rule.ruleId);
  t.like(incident, { status: 'resolved', resolution_reason: 'rule_disabled', resolved_by: 'system:evaluator' });
  t.is(await w.counter('incidents_resolved_total', { severity: 'critical', reason: 'rule_disabled' }), 1);
  t.is(await w.counter('incidents_resolved_total', { severity: 'low', reason: 'rule_disabled' }), 0);
});

test('failing evaluations show on the rule (health, last error, failing since) and count by a fixed reason', async (t) => {
  const w = await world(t);
  // No pin yet: a pin covers every cluster of the environment, so the cluster would never be looked up.
  const blind = await w.createRule({ clusterId: 'rs-nowhere-main' });
  await w.tickAfterAMinute();
  const failedAt = (await w.rule(blind.ruleId))!.failingSince;
  await w.tickAfterAMinute();
  const doc = (await w.rule(blind.ruleId))!;
  t.like(doc, { health: 'failing', failingSince: failedAt });
  t.regex(doc.lastError!, /rs-nowhere-main/);
  t.is(await w.counter('alert_rule_evaluation_errors_total', { reason: 'unknown_cluster' }), 2);

  w.pin(45);
  const healthy = await w.createRule({ evaluationWindowMinutes: 0 });
  w.pause(true);
  await w.tickAfterAMinute();
  t.is((await w.rule(healthy.ruleId))!.health, 'failing');
  t.is(
    await w.counter('alert_rule_evaluation_errors_total', { reason: 'warehouse_unavailable' }),
    2,
    'both rules of the paused environment',
  );
  w.pause(false);
  await w.tickAfterAMinute();
  t.like(await w.rule(healthy.ruleId), { health: 'ok', lastError: null, failingSince: null });
});

test("a quiet or unchanged outcome appends nothing; a change or the rule's hour turning appends one", async (t) => {
  const w = await world(t);
  w.pin(10);
  const rule = await w.createRule({ evaluationWindowMinutes: 0 });
  // Given a quiet rule: its first evaluations append nothing (its watch stays the initial one, so
  // a restart loses nothing); the first is recorded when its hour turns, late in this one
  t.is((await w.tickAfterAMinute()).recorded, 0);
  t.is((await w.tickAfterAMinute()).recorded, 0);
  t.is((await w.tickAfterAMinute()).recorded, 0);
  // When what it watches changes while it stays quiet: still nothing
  await w.updateRule({ ...rule, threshold: 20 });
  t.is((await w.tickAfterAMinute()).recorded, 0);
  // When the condition is met: recorded (the trigger), then unchanged once, then nothing
  w.pin(45);
  t.like(await w.tickAfterAMinute(), { recorded: 1, triggered: 1 });
  t.is((await w.tickAfterAMinute()).recorded, 1);
  t.is((await w.tickAfterAMinute()).recorded, 0);
  t.deepEqual(await w.outcomes(rule.ruleId), ['triggered@t4', 'unchanged@t5']);
  // Then within the next hour of ticks the rule's hour turns once: one more record, the same outcome
  let recorded = 0;
  for (let i = 0; i < 60; i++) recorded += (await w.tickAfterAMinute()).recorded;
  t.is(recorded, 1);
  t.is((await w.outcomes(rule.ruleId)).at(-1)!.split('@')[0], 'unchanged');
  t.like(await w.rule(rule.ruleId), { pendingSince: null, health: 'ok' });
});
