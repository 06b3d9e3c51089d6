/**
 * The evaluator's rules in memory (src/process/rule-mirror.ts) stay equal to the alertRules read
 * model through its change feed (src/readstore/doc-changes.ts): after creates, updates, disables,
 * deletes, evaluations, incidents and a rebuild, re-reading only what changed.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ALERT_RULES, type AlertRuleDoc } from '../projections/alert-rules.js';
import type { AlertRuleData } from '../src/events/alert-rule.js';
import { ruleShareBucket } from '../src/events/rule-shares.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import { createRuleMirror } from '../src/process/rule-mirror.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { alertRuleData, evaluatorStores } from './support/evaluator-stores.js';

const AT = '2026-11-20T12:00:00.000Z';
const ENV_ID = '00000000-0000-4000-8000-0000000000e2';

async function world() {
  const { eventStore, readStore, logger, ruleChanges, runner } = await evaluatorStores('rule-mirror-');
  const tenantId = randomUUID();
  // A fixed environment: which bucket a rule's read falls in is then the same on every run.
  const envId = ENV_ID;
  const metadata = { tenantId, actor: 'test', correlationId: 'c', causationId: 'c', occurredAt: AT };
  /** Rule documents the mirror read, counted: what a refresh costs. */
  let docsRead = 0;
  const countingReader: ReadModelReader = {
    get: (collection, id) => readStore.get(collection, id),
    count: (collection, filter) => readStore.count(collection, filter),
    async find(collection, filter, options) {
      const docs = await readStore.find(collection, filter, options);
      docsRead += docs.length;
      return docs as never;
    },
  };
  const append = async (stream: string, type: string, data: Record<string, unknown>) => {
    const { position } = await eventStore.append(stream, [{ type, data, metadata }]);
    await runner.waitFor(position, 5000);
  };
  const w = {
    eventStore,
    readStore,
    runner,
    ruleChanges,
    logger,
    envId,
    mirror: createRuleMirror(countingReader, ruleChanges),
    takeDocsRead() {
      const read = docsRead;
      docsRead = 0;
      return read;
    },
    ruleData: (fields: Partial<AlertRuleData> = {}): AlertRuleData => alertRuleData(envId, fields),
    async create(fields: Partial<AlertRuleData> = {}) {
      const rule = w.ruleData(fields);
      await append(`alertRule-${rule.ruleId}`, 'AlertRuleCreated', { ...rule });
      return rule;
    },
    update: (rule: AlertRuleData) => append(`alertRule-${rule.ruleId}`, 'AlertRuleUpdated', { ...rule }),
    remove: (ruleId: string) => append(`alertRule-${ruleId}`, 'AlertRuleDeleted', { ruleId }),
    evaluated: (ruleId: string, outcome: 'pending' | 'ok') =>
      append(`ruleEvaluations-${ruleId}`, 'RuleEvaluated', {
        ruleId,
        at: AT,
        value: 50,
        conditionMet: outcome === 'pending',
        outcome,
        incidentId: null,
        error: null,
      }),
    async trigger(rule: AlertRuleData) {
      const incidentId = randomUUID();
      await append(`incident-${incidentId}`, 'IncidentTriggered', {
        incidentId,
        ruleId: rule.ruleId,
        ruleName: rule.name,
        ordinal: 1,
        currentValue: 50,
        severity: rule.severity,
        metric: rule.metric,
        condition: rule.condition,
        threshold: rule.threshold,
        envId,
        clusterId: null,
        escalationPolicyId: rule.escalationPolicyId,
        triggeredAt: AT,
      });
      return incidentId;
    },
    resolve: (incidentId: string) =>
      append(`incident-${incidentId}`, 'IncidentResolved', {
        incidentId,
        by: 'test',
        at: AT,
        reason: 'manual',
        note: null,
        value: null,
      }),
    /** What the evaluator may act on, as the read model says now: enabled, or holding an incident. */
    async heldInReadModel() {
      const docs = await readStore.find<AlertRuleDoc>(ALERT_RULES, {}, { sort: [['id', 'asc']] });
      return docs.filter((doc) => (doc.isEnabled && !doc.deleted) || doc.activeIncidentId !== null);
    },
    inMemory: () => [...w.mirror.all()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    async close() {
      await runner.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
  return w;
}

test('the rules in memory stay equal to the read model through creates, updates, disables, deletes, evaluations and incidents', async (t) => {
  const w = await world();
  t.teardown(() => w.close());
  // Given ten rules, read into memory once
  const rules: AlertRuleData[] = [];
  for (let i = 0; i < 10; i++) rules.push(await w.create({ name: `rule ${i}` }));
  await w.mirror.refresh();
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.is(w.takeDocsRead(), 10, 'the first refresh reads every rule');

  // When two rules are created: then they are in memory, and only they were read
  const created = [await w.create(), await w.create()];
  await w.mirror.refresh();
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.is(w.takeDocsRead(), 2);
  t.true(created.every((rule) => w.mirror.all().some((doc) => doc.id === rule.ruleId)));

  // When one rule's threshold changes, one is renamed and one moves to another read (another bucket)
  await w.update({ ...rules[0]!, threshold: 5 });
  await w.update({ ...rules[1]!, name: 'renamed' });
  const moved = { ...rules[2]!, metric: 'disk_spill_gb' };
  await w.update(moved);
  await w.mirror.refresh();
  // Then memory equals the read model, and the moved rule is found in its new bucket only
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.is(w.takeDocsRead(), 3);
  const newBucket = ruleShareBucket(moved);
  t.true(w.mirror.rulesOf([newBucket]).enabled.some((doc) => doc.id === moved.ruleId));
  t.not(newBucket, ruleShareBucket(rules[2]!), 'the edit moved the rule to another bucket');
  t.false(w.mirror.rulesOf([ruleShareBucket(rules[2]!)]).enabled.some((doc) => doc.id === moved.ruleId));

  // When a rule's evaluation starts its pending clock and another rule triggers an incident
  await w.evaluated(rules[3]!.ruleId, 'pending');
  const incidentId = await w.trigger(rules[4]!);
  await w.mirror.refresh();
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.is(w.mirror.all().find((doc) => doc.id === rules[3]!.ruleId)!.pendingSince, AT);

  // When one rule is disabled and the rule holding the incident is disabled too
  await w.update({ ...rules[5]!, isEnabled: false });
  await w.update({ ...rules[4]!, isEnabled: false });
  await w.mirror.refresh();
  // Then the first is gone from memory; the second stays, as an orphan to resolve
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.false(w.mirror.all().some((doc) => doc.id === rules[5]!.ruleId));
  t.deepEqual(
    w.mirror.rulesOf(null).orphaned.map((doc) => doc.id),
    [rules[4]!.ruleId],
  );

  // When a rule is deleted and the orphan's incident is resolved
  await w.remove(rules[6]!.ruleId);
  await w.resolve(incidentId);
  await w.mirror.refresh();
  // Then both are gone from memory
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
  t.is(w.mirror.rulesOf(null).orphaned.length, 0);
  t.is(w.mirror.size(), 9);

  // When nothing changed: a refresh reads nothing
  w.takeDocsRead();
  await w.mirror.refresh();
  t.is(w.takeDocsRead(), 0);
});

test('a rebuild of the read model (a swapped collection) reads every rule again', async (t) => {
  const w = await world();
  t.teardown(() => w.close());
  // Given four rules in memory
  for (let i = 0; i < 4; i++) await w.create();
  await w.mirror.refresh();
  w.takeDocsRead();
  // When the alertRules projection is rebuilt
  await w.runner.rebuild('alertRules');
  await w.mirror.refresh();
  // Then every rule was read again, and memory equals the read model
  t.is(w.takeDocsRead(), 4);
  t.deepEqual(w.inMemory(), await w.heldInReadModel());
});

test('a rule created, disabled or deleted between two ticks takes effect at the next tick', async (t) => {
  const w = await world();
  t.teardown(() => w.close());
  const now = () => new Date(AT);
  const simulated = createSimulatedWarehouse({ now });
  const evaluator = createEvaluator({
    eventStore: w.eventStore,
    now,
    reader: w.readStore,
    ruleChanges: w.ruleChanges,
    metrics: createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control }),
    logger: w.logger,
    instruments: createEvaluatorInstruments(new Registry()),
    waitForProjections: (position) => w.runner.waitFor(position, 5000),
  });
  // Given three rules, evaluated once
  const [a, b, c] = [await w.create(), await w.create(), await w.create()];
  t.is((await evaluator.tick()).rules, 3);
  // When one is created, one disabled and one deleted
  await w.create();
  await w.update({ ...a!, isEnabled: false });
  await w.remove(b!.ruleId);
  // Then the next tick evaluates the new one and the remaining one
  t.is((await evaluator.tick()).rules, 2);
  t.deepEqual(
    evaluator
      .rulesInMemory()
      .map((doc) => doc.id)
      .includes(c!.ruleId),
    true,
  );
  t.deepEqual(
    [...evaluator.rulesInMemory()].sort((x, y) => (x.id < y.id ? -1 : 1)),
    await w.heldInReadModel(),
  );
});
