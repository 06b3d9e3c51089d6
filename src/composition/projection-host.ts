/**
 * The projections of the embedded stores, as a guest of the event log's writer thread
 * (hostOnWriterThread in src/eventstore/sqlite-writer.ts): the projection runner, the read-back
 * validation of each event and the read-model transactions run there, right after the commit that
 * calls for them, instead of in the event loop that serves HTTP. It reads the log through its own
 * connection and writes the read models through its own; queries keep reading on the main thread
 * (WAL readers are not blocked by this writer). After every batch it tells the main thread which
 * tenants' IAM read models changed (cached permissions), which alert rules changed (the
 * evaluator's rules in memory) and how far the projections are (read-your-writes), in one
 * message, in that order.
 */
import type { MessagePort } from 'node:worker_threads';
import { ALERT_RULE_CHANGES } from '../../projections/alert-rules.js';
import { reportingIamCommits } from '../auth/iam-change-stamps.js';
import { channelEventSecrets } from '../events/channel-secrets.js';
import { openingSecrets } from '../eventstore/encrypting.js';
import { openSqliteLogReader } from '../eventstore/sqlite-log-reader.js';
import { createLogger } from '../logger.js';
import { createProjectionRunner } from '../projection-runner/runner.js';
import { collectedDocChanges, reportingDocChanges } from '../readstore/doc-changes.js';
import { openSqliteReadStore } from '../readstore/sqlite.js';
import { loadSecretBox } from '../secrets/key-file.js';
import type { FromProjectionThread, ProjectionThreadSetup, ToProjectionThread } from './projection-thread-protocol.js';
import { projectionsOf } from './read-models.js';

export function hostOnWriterThread(
  setup: ProjectionThreadSetup,
  port: MessagePort,
  onCommit: (listener: () => void) => () => void,
): void {
  const post = (message: FromProjectionThread) => port.postMessage(message);
  try {
    start(setup, post, port, onCommit);
  } catch (error) {
    post({ kind: 'failed', error: (error as Error).message });
    port.close();
  }
}

function start(
  setup: ProjectionThreadSetup,
  post: (message: FromProjectionThread) => void,
  port: MessagePort,
  onCommit: (listener: () => void) => () => void,
) {
  const logger = createLogger(setup.logLevel);
  const secrets = loadSecretBox(
    {
      key: setup.secrets.key ? Buffer.from(setup.secrets.key) : undefined,
      previousKeys: setup.secrets.previousKeys.map((key) => Buffer.from(key)),
    },
    setup.secretsKeyFile,
  );
  const all = projectionsOf(secrets);
  const projections = setup.projections.map((name) => {
    const projection = all.find((p) => p.name === name);
    if (!projection) throw new Error(`the projection host does not know the projection ${name}`);
    return projection;
  });

  // Sealed as in the file: the runner opens only the events a projection handles.
  const eventStore = openSqliteLogReader({ filename: setup.eventsFile, onCommit });
  const readStore = openSqliteReadStore(setup.readModelsFile);

  let iamChanges: (string | null)[] = [];
  const collectingStamps = {
    stampOf: () => '',
    changed: (tenantId?: string) => void iamChanges.push(tenantId ?? null),
  };
  const takeIamChanges = () => {
    const changes = iamChanges;
    iamChanges = [];
    return changes;
  };

  const ruleChanges = collectedDocChanges();
  const progress = (reached?: bigint): FromProjectionThread => ({
    kind: 'progress',
    iamChanges: takeIamChanges(),
    ruleChanges: ruleChanges.take(),
    reached,
    status: runner.status(),
  });

  const runner = createProjectionRunner({
    eventStore,
    readStore: reportingIamCommits(
      reportingDocChanges(readStore, ALERT_RULE_CHANGES, ruleChanges.add),
      new Set(setup.iamProjections),
      collectingStamps,
    ),
    projections,
    logger,
    openEvent: openingSecrets(secrets, channelEventSecrets),
    onAdvance: (reached) => post(progress(reached)),
  });

  async function stop() {
    await runner.stop();
    await readStore.close();
    await eventStore.close();
    post({ kind: 'stopped' });
    port.close();
  }

  port.on('message', (message: ToProjectionThread) => {
    if (message.kind === 'stop') {
      void stop().catch((error) => logger.error({ err: error }, 'the projections did not stop cleanly'));
      return;
    }
    const { id, name } = message;
    runner
      .rebuild(name, (progress) => post({ kind: 'rebuild-progress', id, progress }))
      .then(
        (position) => {
          post(progress());
          post({ kind: 'rebuilt', id, position });
        },
        (error: Error) => post({ kind: 'rebuild-failed', id, error: error.message }),
      );
  });

  runner.start().then(
    () => {
      post(progress());
      post({ kind: 'started' });
    },
    (error: Error) => {
      post({ kind: 'failed', error: error.message });
      port.close();
    },
  );
}
