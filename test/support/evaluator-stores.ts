/**
 * The stores an evaluator test runs on: an embedded log and read models in a fresh folder, the
 * alert-rule and incident projections running over them, and the change feed by which the
 * evaluator keeps its rules in memory (src/readstore/doc-changes.ts), as the platform wires it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ALERT_RULE_CHANGES, alertRulesProjection } from '../../projections/alert-rules.js';
import { incidentsProjection } from '../../projections/incidents.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';
import { createProjectionRunner } from '../../src/projection-runner/runner.js';
import { docChangeFeed, reportingDocChanges } from '../../src/readstore/doc-changes.js';
import { openSqliteReadStore } from '../../src/readstore/sqlite.js';

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
    async close() {
      await runner.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
}
