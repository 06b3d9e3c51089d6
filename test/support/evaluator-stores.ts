/**
 * The stores an evaluator test runs on: an embedded log and read models in a fresh folder, the
 * alert-rule and incident projections running over them, and the change feed by which the
 * evaluator keeps its rules in memory (src/readstore/doc-changes.ts), as the platform wires it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { randomUUID } from 'node:crypto';
import { ALERT_RULE_CHANGES, alertRulesProjection } from '../../projections/alert-rules.js';
import type { AlertRuleData } from '../../src/events/alert-rule.js';
import { incidentsProjection } from '../../projections/incidents.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';
import { createProjectionRunner } from '../../src/projection-runner/runner.js';
import { docChangeFeed, reportingDocChanges } from '../../src/readstore/doc-changes.js';
import { openSqliteReadStore } from '../../src/readstore/sqlite.js';

/** A rule as its AlertRuleCreated event carries it: a quiet queue-wait rule unless `fields` say otherwise. */
export const alertRuleData = (envId: string, fields: Partial<AlertRuleData> = {}): AlertRuleData => ({
  ruleId: randomUUID(),
  name: 'queue',
  description: null,
  metric: 'queue_time_seconds',
  condition: 'gt',
  threshold: 1e9,
  evaluationWindowMinutes: 5,
  severity: 'high',
  escalationPolicyId: randomUUID(),
  clusterId: null,
  isEnabled: true,
  envId,
  ...fields,
});

export async function evaluatorStores(folderPrefix: string) {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'e.db') });
  const readStore = openSqliteReadStore(join(dir, 'r.db'));
  const logger = pino({ level: 'silent' });
  const ruleChanges = docChangeFeed();
  const runner = createProjectionRunner({
    eventStore,
    readStore: reportingDocChanges(readStore, ALERT_RULE_CHANGES, ruleChanges.publish),
    projections: [alertRulesProjection, incidentsProjection],
    logger,
  });
  await runner.start();
  return {
    dir,
    eventStore,
    readStore,
    logger,
    ruleChanges,
    runner,
    /** Creates the rules in the log as the tenant's, at `at`; resolves with the last one's position once the read models have them. */
    async createRules(tenantId: string, at: Date, rules: AlertRuleData[]): Promise<bigint> {
      let last = 0n;
      for (const rule of rules)
        last = (
          await eventStore.append(`alertRule-${rule.ruleId}`, [
            {
              type: 'AlertRuleCreated',
              data: { ...rule },
              metadata: { tenantId, actor: 'test', correlationId: 'c', causationId: 'c', occurredAt: at.toISOString() },
            },
          ])
        ).position;
      await runner.waitFor(last, 5000);
      return last;
    },
    async close() {
      await runner.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
}
