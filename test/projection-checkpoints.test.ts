/**
 * Issue 27, defects 6 and 1: every projection's checkpoint advances with the log (handled or not),
 * and a checkpoint beyond the log's head (the log lost its tail) rebuilds the read model from the
 * log with an error naming how many positions were lost.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { channelsProjection, CHANNELS } from '../projections/channels.js';
import { incidentsProjection } from '../projections/incidents.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { sampleEvent } from './support/eventstore-contract.js';

const channels = channelsProjection(secretBox(randomBytes(32)));
const channelId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const created = (n: number) =>
  sampleEvent('ChannelCreated', {
    channelId: channelId(n),
    name: `c${n}`,
    type: 'email',
    config: { recipients: ['a@b.co'], subject_template: 's' },
  });

function recordingLogger() {
  const lines: { level: number; msg: string; lostPositions?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

function dataDir(t: { teardown: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'proj-ckpt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { events: join(dir, 'events.db'), readModels: join(dir, 'read-models.db'), dir };
}

async function project(files: { events: string; readModels: string }, logger = pino({ level: 'silent' })) {
  const eventStore = openSqliteEventStore({ filename: files.events });
  const readStore = openSqliteReadStore(files.readModels);
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [channels, incidentsProjection],
    logger,
  });
  await runner.start();
  const close = async () => {
    await runner.stop();
    await readStore.close();
    await eventStore.close();
  };
  return { eventStore, readStore, runner, close };
}

test('a projection that handled none of the events still stores its checkpoint at the head (no re-read from the start)', async (t) => {
  const files = dataDir(t);
  const first = await project(files);
  let head = -1n;
  for (let n = 1; n <= 5; n++) head = (await first.eventStore.append(`channel-${n}`, [created(n)])).position;
  t.true(await first.runner.waitFor(head, 5000));
  await first.close();

  const readStore = openSqliteReadStore(files.readModels);
  t.is((await readStore.getCheckpoint('channels'))?.position, head);
  t.is(
    (await readStore.getCheckpoint(incidentsProjection.name))?.position,
    head,
    'the incidents projection handled no event, yet its checkpoint is at the head',
  );
  await readStore.close();
});

test('a read model ahead of the log (its tail lost) is rebuilt at start-up, with an error naming the lost positions', async (t) => {
  const files = dataDir(t);
  const first = await project(files);
  for (let n = 1; n <= 3; n++) await first.eventStore.append(`channel-${n}`, [created(n)]);
  await first.close();
  // The log as it was after 3 channels: what a lost WAL tail (or an older copy of events.db) leaves.
  copyFileSync(files.events, join(files.dir, 'events-before.db'));

  const second = await project(files);
  let head = -1n;
  for (let n = 4; n <= 6; n++) head = (await second.eventStore.append(`channel-${n}`, [created(n)])).position;
  t.true(await second.runner.waitFor(head, 5000));
  await second.close();
  copyFileSync(join(files.dir, 'events-before.db'), files.events);

  const { logger, lines } = recordingLogger();
  const third = await project(files, logger);
  t.teardown(() => third.close());
  const error = lines.find((line) => line.level === 50 && /ahead of the event log/.test(line.msg));
  t.truthy(error, 'an error is logged');
  t.is(error?.lostPositions, '3');
  t.regex(error!.msg, /3 positions .* missing from the log/);
  t.is(await third.readStore.get(CHANNELS, channelId(5)), null, 'the lost channel is no longer listed');
  t.truthy(await third.readStore.get(CHANNELS, channelId(2)));

  // The next append takes the lost position and is visible (its checkpoint no longer passed it).
  const { position } = await third.eventStore.append('channel-7', [created(7)]);
  t.true(await third.runner.waitFor(position, 5000));
  t.truthy(await third.readStore.get(CHANNELS, channelId(7)), 'the new channel is listed');
});
