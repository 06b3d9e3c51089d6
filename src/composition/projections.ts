/**
 * The projections that build every read model (src/composition/read-models.ts), started before any
 * area is composed, so commands can wait for their own writes from the first request on. With the
 * embedded stores they run on a thread of their own (projection-thread.ts); with EventStoreDB or
 * MongoDB in this process. IAM read-model commits move the permission cache's stamps; alertRules
 * commits are told to the rules' change feed (the evaluator keeps the rules in memory by it).
 */
import type { Logger } from 'pino';
import { ALERT_RULE_CHANGES } from '../../projections/alert-rules.js';
import { join } from 'node:path';
import { reportingIamCommits, type IamChangeStamps } from '../auth/iam-change-stamps.js';
import type { Config } from '../config.js';
import type { EventStore } from '../eventstore/port.js';
import { createProjectionRunner, type ProjectionRunner } from '../projection-runner/runner.js';
import { reportingDocChanges, type DocChangeFeed } from '../readstore/doc-changes.js';
import type { ReadStore } from '../readstore/port.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { projectionThread } from './projection-thread.js';
import { iamProjections, projectionsOf } from './read-models.js';

export interface ProjectionsDeps {
  config: Config;
  eventStore: EventStore;
  readStore: ReadStore;
  secrets: SecretBox;
  stamps: IamChangeStamps;
  /** Told which alert rules each commit changed. */
  ruleChanges: DocChangeFeed;
  logger: Logger;
}

/** Both stores are the SQLite files in DATA_DIR (what openStores opens when neither URL is set). */
const embeddedStores = (config: Config) => !config.eventStoreUrl && !config.mongodb;

export async function startProjections(deps: ProjectionsDeps): Promise<ProjectionRunner> {
  const { config, logger, stamps } = deps;
  const projections = projectionsOf(deps.secrets);
  const iamProjectionNames = new Set(iamProjections.map((projection) => projection.name));
  const runner: ProjectionRunner = embeddedStores(config)
    ? projectionThread({
        eventsFile: join(config.dataDir, 'events.db'),
        readModelsFile: join(config.dataDir, 'read-models.db'),
        secrets: config.secrets,
        secretsKeyFile: join(config.dataDir, 'secrets.key'),
        projections,
        iamProjections: iamProjectionNames,
        stamps,
        onRuleChanges: deps.ruleChanges.publish,
        logLevel: config.logLevel,
        logger,
      })
    : createProjectionRunner({
        eventStore: deps.eventStore,
        readStore: reportingIamCommits(
          reportingDocChanges(deps.readStore, ALERT_RULE_CHANGES, deps.ruleChanges.publish),
          iamProjectionNames,
          stamps,
        ),
        projections,
        logger,
      });
  await runner.start();
  return runner;
}
