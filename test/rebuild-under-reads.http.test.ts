/**
 * Issue 39, item 6: a rebuild never takes reads down. A projection's version bump builds the new
 * read model beside the live one; a reader hammering the list meanwhile gets no error and no
 * answer that is neither the previous version complete nor the new one complete (never empty,
 * never partial), and once it has seen the new version it never sees the previous one again.
 * Run against the embedded read store and the MongoDB adapter (on the stand-in).
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { channelsProjection, CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { incidentsProjection } from '../projections/incidents.js';
import type { EventStore } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import type { Projection } from '../src/projection-runner/projection.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openMongoReadStore } from '../src/readstore/mongodb.js';
import type { ReadStore } from '../src/readstore/port.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { startMongoStandIn, type MongoStandIn } from './support/mongo-standin/index.js';
import { waitFor } from './support/wait-for.js';

const tenant = '00000000-0000-4000-8000-000000000001';
const channels = channelsProjection(secretBox(randomBytes(32)));
/** The previous version of the projection: its documents say which version wrote them. */
const previousVersion: Projection = {
  ...channels,
  version: channels.version - 1,
  async apply(event, writer) {
    await channels.apply({ ...event, data: { ...event.data, name: `old ${String(event.data.name)}` } }, writer);
  },
};

const created = () =>
  sampleEvent('ChannelCreated', {
    channelId: randomUUID(),
    name: 'c',
    type: 'email',
    config: { recipients: ['a@b.co'], subject_template: 's' },
  });

let standIn: MongoStandIn | undefined;
test.before(async () => {
  standIn = await startMongoStandIn();
});
test.after.always(async () => {
  await standIn?.stop();
});

/**
 * The log with reads from its start held shut until `open()`: the new version's build (the one
 * reader that starts there) waits, mid-rebuild; the live projections read on.
 */
function withGatedReadAll(store: EventStore) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const gated: EventStore = {
    ...store,
    readAll: async (options) => {
      if (options?.after === undefined) await gate;
      return store.readAll(options);
    },
  };
  return { gated, open };
}

/** Hammers the list until stopped: each answer is the previous version complete, the new one complete, or neither. */
function hammer(readStore: ReadStore, complete: { old: () => number; new: () => number }) {
  const answers: ('old' | 'new' | 'neither')[] = [];
  const errors: unknown[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      try {
        const docs = await readStore.find<ChannelDoc>(CHANNELS, { tenantId: tenant }, { sort: [['createdAt', 'asc']] });
        const old = docs.filter((doc) => doc.name.startsWith('old ')).length;
        if (old === docs.length && docs.length === complete.old()) answers.push('old');
        else if (old === 0 && docs.length === complete.new()) answers.push('new');
        else answers.push('neither');
      } catch (error) {
        errors.push(error);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    answers,
    errors,
    async stop() {
      running = false;
      await done;
    },
  };
}

async function rebuildUnderReads(
  t: ExecutionContext,
  channelCount: number,
  openReadStore: (dir: string) => Promise<ReadStore>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'rebuild-reads-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const readStore = await openReadStore(dir);
  const logger = pino({ level: process.env.TEST_LOG ?? 'silent' });
  let head = -1n;
  for (let n = 0; n < channelCount; n += 100) {
    const appends = Array.from({ length: 100 }, () => eventStore.append(`channel-${randomUUID()}`, [created()]));
    for (const { position } of await Promise.all(appends)) if (position > head) head = position;
  }

  // Given the previous version of the read model, at the head.
  const previous = createProjectionRunner({
    eventStore,
    readStore,
    projections: [previousVersion, incidentsProjection],
    logger,
  });
  await previous.start();
  t.true(await previous.waitFor(head, 20_000));
  await previous.stop();

  // When the platform starts with the new version while a reader hammers the list.
  const { gated, open } = withGatedReadAll(eventStore);
  let written = channelCount;
  const reader = hammer(readStore, { old: () => channelCount, new: () => written });
  // Another projection, unchanged, goes on following the log meanwhile.
  const runner = createProjectionRunner({
    eventStore: gated,
    readStore,
    projections: [channels, incidentsProjection],
    logger,
  });
  t.teardown(() => Promise.all([reader.stop(), runner.stop()]).then(() => undefined));
  const startedWhileBuilding = await Promise.race([
    runner.start().then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
  ]);
  t.true(startedWhileBuilding, 'the runner serves (start resolves) while the new version is still being built');
  t.truthy(runner.status()[0]!.building, 'health shows the new version being built');
  await waitFor(() => reader.answers.length >= 3, { message: 'answers while the new version is built' });
  // Writes go on meanwhile; they are in the new version when it is switched in.
  const more = await eventStore.append(`channel-${randomUUID()}`, [created()]);
  written++;
  t.true(await runner.waitFor(more.position, 5000), 'read-your-writes is not held back by the build');

  open();
  await waitFor(() => runner.status()[0]!.building === undefined, {
    // A deadline, not a wait: the stand-in shares this event loop with the hammering reader.
    timeoutMs: 60_000,
    message: 'the switch',
  }).catch((error) => {
    throw new Error(
      `${error.message}: ${JSON.stringify(runner.status(), (_k, v) => (typeof v === 'bigint' ? String(v) : v))} answers ${reader.answers.length}`,
    );
  });
  const atSwitch = reader.answers.length;
  await waitFor(() => reader.answers.length >= atSwitch + 3, { message: 'answers after the switch' });
  await reader.stop();

  // Then: no error, every answer complete, and none older than the switch once the new one was seen.
  t.deepEqual(reader.errors, []);
  t.is(reader.answers.filter((a) => a === 'neither').length, 0, 'never empty or partial');
  const firstNew = reader.answers.indexOf('new');
  t.true(reader.answers.indexOf('old') === 0, 'the previous version answered while the new one was built');
  t.true(firstNew > 0);
  t.false(reader.answers.slice(firstNew).includes('old'), 'no answer older than the switch');
  t.deepEqual(await readStore.getCheckpoint('channels'), {
    position: more.position,
    version: channels.version,
  });
  t.is(await readStore.count(`${CHANNELS}__rebuild`, {}), 0, 'the shadow became the live collection');

  // The new version follows the log from there on.
  const after = await eventStore.append(`channel-${randomUUID()}`, [created()]);
  t.true(await runner.waitFor(after.position, 5000));
  t.is(await readStore.count(CHANNELS, { tenantId: tenant }), channelCount + 2);
  await runner.stop();
  await readStore.close();
  await eventStore.close();
}

test('embedded read store: a version bump under a read load gives the previous version, then the new one, never less', (t) =>
  rebuildUnderReads(t, 2000, async (dir) => openSqliteReadStore(join(dir, 'read-models.db'))));

test('MongoDB adapter: a version bump under a read load gives the previous version, then the new one, never less', (t) =>
  // Fewer documents: the stand-in answers a list of them in the test's own event loop, slowly.
  rebuildUnderReads(t, 100, () => openMongoReadStore(standIn!.url, { dbName: `rebuild_${randomUUID().slice(0, 8)}` })));
