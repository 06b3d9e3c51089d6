/**
 * Issue 38 §1 against the Redshift adapter (the Data API stand-in): a revoked grant pages the same
 * way as a paused cluster, the incident naming the view and the grant that fixes it, and resolves
 * once the grant is back; a statement that answers with no value is `no_data`, never a 0.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { ruleEvaluationStream } from '../src/events/rule-evaluation.js';
import { ruleBucketKey, ruleShareBucket } from '../src/events/rule-shares.js';
import { fileEnvironmentResolver, parseEnvironments } from '../src/gateways/warehouse/environments.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import type { StatementScript } from './support/redshift-data-standin.js';
import { redshiftHarness } from './support/redshift-gateway-harness.js';
import { alertRuleData, evaluatorStores } from './support/evaluator-stores.js';

const NOW = new Date('2026-11-20T12:00:00Z');

async function setup(t: ExecutionContext, script: () => StatementScript) {
  const envId = randomUUID();
  const environments = fileEnvironmentResolver(
    parseEnvironments({
      [envId]: {
        kind: 'provisioned',
        cluster_identifier: 'analytics-prod',
        database: 'dw',
        db_user: 'monitor',
        region: 'eu-west-1',
        schema: 'analytics',
      },
    }),
  );
  const { standin, gateway } = await redshiftHarness(t, script, environments);
  const { eventStore, readStore, logger, ruleChanges, runner, createRules } = await evaluatorStores('eval-grant-');
  t.teardown(async () => {
    await runner.stop();
    await eventStore.close();
    await readStore.close();
  });
  const tenantId = randomUUID();
  const policyId = randomUUID();
  const addRule = async (metric: string) => {
    const rule = alertRuleData(envId, {
      name: 'Disk nearly full',
      metric,
      threshold: 90,
      evaluationWindowMinutes: 0,
      escalationPolicyId: policyId,
      onError: 'alerting',
      onNoData: 'alerting',
      errorForMinutes: 0,
    });
    await createRules(tenantId, NOW, [rule]);
    return rule.ruleId;
  };
  const ruleId = await addRule('storage_utilization_pct');
  /** An evaluator instance; `owns` as a cluster member's (default: every rule). */
  const newEvaluator = (owns?: (bucketKey: string) => boolean) =>
    createEvaluator({
      eventStore,
      now: () => NOW,
      reader: readStore,
      ruleChanges,
      metrics: createMetricRegistry({ gateway }),
      logger,
      instruments: createEvaluatorInstruments(new Registry()),
      waitForProjections: (p) => runner.waitFor(p, 5000),
      ...(owns ? { owns } : {}),
    });
  const evaluator = newEvaluator();
  const incidents = () => readStore.find<IncidentDoc>(INCIDENTS, { tenantId, source: 'rule_error' });
  const history = async () => {
    const events = (await eventStore.readStream(ruleEvaluationStream(ruleId))).map((event) => event.data);
    return events as unknown as { outcome: string; error: string | null; value: number | null }[];
  };
  return { standin, evaluator, newEvaluator, addRule, incidents, history, policyId, ruleId, envId };
}

test('a revoked grant opens the read-failure incident naming the view and the grant; the grant back resolves it', async (t) => {
  // Given the monitoring user lost its grant on the superuser-only view the storage metric reads…
  const { standin, evaluator, incidents, history, policyId, ruleId } = await setup(t, () => ({
    columns: ['value'],
    rows: [[42]],
  }));
  standin.actAs({ superuser: false });
  // …when the rule is evaluated…
  const report = await evaluator.tick();
  // …then its cluster's read-failure incident opens on the rule's policy, saying what to run.
  t.is(report.readFailuresOpened, 1);
  const [incident] = await incidents();
  t.like(incident, {
    source: 'rule_error',
    status: 'triggered',
    severity: 'high',
    escalation_policy_id: policyId,
    rule_ids: [ruleId],
    current_value: null,
  });
  t.regex(String(incident!.title), /cannot be read$/);
  t.regex(String(incident!.detail), /stv_node_storage_capacity/);
  t.regex(String(incident!.detail), /GRANT SELECT ON stv_node_storage_capacity TO monitor;/);
  const [evaluation] = await history();
  t.like(evaluation, { outcome: 'error', value: null });
  t.regex(String(evaluation!.error), /stv_node_storage_capacity/);
  // A second tick pages nobody again.
  t.is((await evaluator.tick()).readFailuresOpened, 0);
  t.is((await incidents()).length, 1);

  // When the grant is back, the next tick reads and resolves the incident by itself.
  standin.actAs({ superuser: false, selectGrants: ['stv_node_storage_capacity'] });
  const after = await evaluator.tick();
  t.is(after.readFailuresResolved, 1);
  t.like((await incidents())[0], { status: 'resolved', resolution_reason: 'auto' });
});

test('a statement that answers with no value is no_data (never a 0), and pages as "returns no data"', async (t) => {
  const { evaluator, incidents, history } = await setup(t, () => ({ columns: ['value'], rows: [] }));
  const report = await evaluator.tick();
  t.is(report.readFailuresOpened, 1);
  const [evaluation] = await history();
  t.like(evaluation, { outcome: 'no_data', value: null });
  t.regex(String(evaluation!.error), /returned no value for storage_utilization_pct/);
  t.regex(String((await incidents())[0]!.title), /returns no data$/);
});

test("two instances: one whose rules read again does not resolve the incident while the other's still fail", async (t) => {
  const { standin, newEvaluator, addRule, incidents, ruleId, envId } = await setup(t, () => ({
    columns: ['value'],
    rows: [[42]],
  }));
  // Given two rules of one cluster and policy in different share buckets (storage reads
  // stv_node_storage_capacity, unsorted_pct reads svv_table_info), each owned by another instance…
  await addRule('unsorted_pct');
  const bucketOf = (metric: string) =>
    ruleBucketKey(ruleShareBucket({ envId, clusterId: null, metric, evaluationWindowMinutes: 0 }));
  const storageBucket = bucketOf('storage_utilization_pct');
  t.not(storageBucket, bucketOf('unsorted_pct'), 'the two rules are in different buckets');
  const first = newEvaluator((key) => key === storageBucket);
  const second = newEvaluator((key) => key !== storageBucket);
  standin.actAs({ superuser: false });
  const opened = [await first.tick(), await second.tick()].map((report) => report.readFailuresOpened);
  t.deepEqual(opened, [1, 0], 'one incident for both');
  t.deepEqual([...(await incidents())[0]!.rule_ids].sort(), [ruleId].sort());

  // …when only the first instance's rule reads again…
  standin.actAs({ superuser: false, selectGrants: ['stv_node_storage_capacity'] });
  await first.tick();
  await second.tick();
  await first.tick();
  // …then the incident stays open: the second instance's rule still fails.
  t.is((await incidents())[0]!.status, 'triggered');
  // When the other grant is back too, it resolves (by whichever instance ticks next).
  standin.actAs({ superuser: false, selectGrants: ['stv_node_storage_capacity', 'svv_table_info'] });
  t.is((await second.tick()).readFailuresResolved, 1);
  t.is((await incidents())[0]!.status, 'resolved');
});
