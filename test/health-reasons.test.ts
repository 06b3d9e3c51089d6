/**
 * The reasons /health gives beyond pings: appends refused until one succeeds again, projections
 * failing or stopped, and read models behind the log by more than the bound.
 */
import test from 'ava';
import { trackingAppendRefusals } from '../src/eventstore/append-refusals.js';
import { WrongExpectedRevisionError, type EventStore } from '../src/eventstore/port.js';
import { projectionProblems, projectionsHealthCheck } from '../src/projection-runner/projection-health.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { waitFor } from './support/wait-for.js';
import { pino } from 'pino';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import type { ReadModelWriter, ReadStore } from '../src/readstore/port.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function flakyStore(outcomes: (Error | undefined)[]): EventStore {
  return {
    async append() {
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
      return { position: 1n, nextExpectedRevision: 0n };
    },
  } as unknown as EventStore;
}

test('appends are reported refused from a failure until one succeeds again, since the first and with the latest; a conflict is not a refusal', async (t) => {
  const full = new Error('database or disk is full');
  let seconds = 0;
  const { store, refusal } = trackingAppendRefusals(
    flakyStore([new WrongExpectedRevisionError('s', 0n, 1n), full, full, undefined]),
    () => new Date(Date.parse('2026-01-01T00:00:00Z') + 1000 * seconds++),
  );
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  t.is(refusal(), undefined, 'a conflict answers; it does not refuse');
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  t.deepEqual(refusal(), {
    since: new Date('2026-01-01T00:00:00Z'),
    lastAt: new Date('2026-01-01T00:00:01Z'),
    error: 'database or disk is full',
    refused: 2,
  });
  await store.append('s', [sampleEvent('X')]);
  t.is(refusal(), undefined);
});

test('projection problems name the failing or stopped projection and the one behind the log by more than the bound', (t) => {
  const statuses = [
    { name: 'channels', version: 1, position: 100n, lag: 0 },
    {
      name: 'incidents',
      version: 1,
      position: 100n,
      lag: 0,
      failing: 'the log subscription ended: database disk image is malformed',
    },
    { name: 'users', version: 1, position: 40n, lag: 0 },
  ];
  // Events behind, as counted from the log (positions are byte offsets on EventStoreDB: not a distance).
  const behind = (position: bigint) => (position === 40n ? 51 : 0);
  t.deepEqual(projectionProblems(statuses, behind, 50), [
    'incidents is failing: the log subscription ended: database disk image is malformed',
    'users is more than 50 events behind the log',
  ]);
  t.deepEqual(
    projectionProblems(statuses.slice(2), () => 50, 50),
    [],
    'at the bound is not behind it',
  );
});

test('the health check counts events behind the head, not the difference of positions (byte offsets on EventStoreDB)', async (t) => {
  // Given a log whose positions are far apart (as EventStoreDB's commit positions are): 3 events
  const positions = [1_000n, 250_000n, 900_000n];
  const check = (position: bigint, maxLag: number) =>
    projectionsHealthCheck({
      status: () => [{ name: 'incidents', version: 4, position, lag: 0 }],
      headPosition: async () => positions.at(-1)!,
      readAll: async ({ after, maxCount }) => positions.filter((p) => p > after).slice(0, maxCount),
      maxLag,
    })();
  // Then a projection two events behind is within a bound of 2 events, though 899,000 positions behind
  await t.notThrowsAsync(check(1_000n, 2));
  await t.throwsAsync(check(0n, 2), { message: 'incidents is more than 2 events behind the log' });
  await t.notThrowsAsync(check(900_000n, 0), 'caught up');
});

test('a log subscription that ends with SQLITE_CORRUPT marks every projection failing, naming it (health reads that)', async (t) => {
  const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
  const eventStore = {
    headPosition: async () => 10n,
    subscribeToAll: () => ({
      async *[Symbol.asyncIterator]() {
        throw corrupt;
      },
      close: async () => undefined,
    }),
  } as unknown as EventStore;
  const readStore = {
    ensureIndexes: async () => undefined,
    getCheckpoint: async () => ({ position: 10n, version: 1 }),
    setCheckpoint: async () => undefined,
  } as unknown as ReadStore;
  const projection = {
    name: 'channels',
    version: 1,
    handles: ['ChannelCreated'],
    collections: {},
    apply: async () => undefined,
  };
  const advanced: bigint[] = [];
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [projection],
    logger: pino({ level: 'silent' }),
    onAdvance: (p) => advanced.push(p),
  });
  await runner.start();
  await waitFor(() => runner.status()[0]!.failing !== undefined, {
    timeoutMs: 5000,
    message: 'the projection to report the ended subscription',
  });
  t.regex(runner.status()[0]!.failing!, /the log subscription ended: database disk image is malformed/);
  t.true(advanced.length > 0, 'the projection host is told (it reports status on advance)');
  t.deepEqual(
    projectionProblems(runner.status(), () => 0, 1000),
    ['channels is failing: the log subscription ended: database disk image is malformed'],
  );
  await runner.stop();
});

test('an ended log subscription is retried: once events flow again, the projections are no longer failing and apply them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'resubscribe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const readStore = openSqliteReadStore(join(dir, 'read-models.db'));
  let subscriptions = 0;
  const eventStore: EventStore = {
    ...log,
    subscribeToAll: (options) => {
      subscriptions += 1;
      if (subscriptions > 1) return log.subscribeToAll(options);
      return {
        async *[Symbol.asyncIterator]() {
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        },
        close: async () => undefined,
      } as unknown as ReturnType<EventStore['subscribeToAll']>;
    },
  };
  const projection = {
    name: 'things',
    version: 1,
    handles: ['ChannelCreated'],
    collections: { things: [] },
    apply: async (event: { position: bigint }, writer: ReadModelWriter) =>
      writer.upsert('things', { id: String(event.position) }),
  };
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [projection],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  await waitFor(() => runner.status()[0]!.failing !== undefined, {
    timeoutMs: 5000,
    message: 'the ended subscription to be reported',
  });
  const { position } = await log.append('channel-1', [
    sampleEvent('ChannelCreated', {
      channelId: '00000000-0000-4000-8000-000000000001',
      name: 'c',
      type: 'email',
      config: { recipients: ['a@b.co'], subject_template: 's' },
    }),
  ]);
  t.true(await runner.waitFor(position, 10_000), 'the resubscribed runner applies the new event');
  t.is(runner.status()[0]!.failing, undefined);
  t.truthy(await readStore.get('things', String(position)));
  await runner.stop();
  await readStore.close();
  await log.close();
});
