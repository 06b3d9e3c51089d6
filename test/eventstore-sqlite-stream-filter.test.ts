/**
 * Subscriptions of the embedded log filtered by stream prefix: what they deliver (through the
 * store), and that they do not search the same non-matching rows again on every wake-up (through
 * the read module over a connection whose filtered statement is watched).
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent, Subscription } from '../src/eventstore/port.js';
import { sqliteLogReads } from '../src/eventstore/sqlite-log-reads.js';
import { SCHEMA } from '../src/eventstore/sqlite-schema.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { waitFor } from './support/wait-for.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'es-filter-')), 'events.db');

/** Collects a subscription's events in the background. */
function collect(sub: Subscription) {
  const seen: RecordedEvent[] = [];
  const done = (async () => {
    for await (const event of sub) seen.push(event);
  })();
  return { seen, done };
}

test('more matching events than one page, among many non-matching ones, then a live one after many more non-matching', async (t) => {
  const store = openSqliteEventStore({ filename: tempFile() });
  // Given 1,250 matching events in five runs, each after 250 non-matching ones (more than a page of either)
  for (let run = 0; run < 5; run++) {
    await store.append(
      `channel-${run}`,
      Array.from({ length: 250 }, () => sampleEvent('Skip')),
    );
    await store.append(
      'incident-1',
      Array.from({ length: 250 }, (_, i) => sampleEvent('Match', { n: run * 250 + i })),
    );
  }
  // When a filtered subscription catches up
  const { seen, done } = collect(store.subscribeToAll({ streamPrefixes: ['incident-'] }));
  await waitFor(() => seen.length >= 1250, { message: 'the catch-up' });
  // And 1,000 more non-matching events are written before a matching one
  for (let i = 0; i < 4; i++)
    await store.append(
      'channel-live',
      Array.from({ length: 250 }, () => sampleEvent('Skip')),
    );
  await store.append('incident-2', [sampleEvent('Live')]);
  await waitFor(() => seen.some((e) => e.type === 'Live'), { message: 'the live matching event' });
  // Then every matching event arrived once, in order, and nothing else
  await store.close();
  await done;
  t.deepEqual(
    seen.slice(0, 1250).map((e) => e.data.n),
    Array.from({ length: 1250 }, (_, n) => n),
  );
  t.deepEqual(
    seen.slice(1250).map((e) => e.type),
    ['Live'],
  );
  t.true(seen.every((e) => e.streamName.startsWith('incident-')));
  for (let i = 1; i < seen.length; i++) t.true(seen[i]!.position > seen[i - 1]!.position);
});

/**
 * The read module over an in-memory log, with commits announced by hand (no polling) and the
 * `after` bound of every run of the filtered read recorded.
 */
function watchedLog() {
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  const commits = new EventEmitter();
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)',
  );
  const revisions = new Map<string, number>();
  const write = (stream: string, type: string, count = 1) => {
    for (let i = 0; i < count; i++) {
      const revision = revisions.get(stream) ?? 0;
      revisions.set(stream, revision + 1);
      insert.run(randomUUID(), stream, revision, type, '{}', JSON.stringify(sampleEvent(type).metadata));
    }
    commits.emit('commit');
  };
  const filteredReadsFrom: number[] = [];
  const watched = new Proxy(db, {
    get(target, key) {
      if (key !== 'prepare') {
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!sql.includes('position <= ?')) return statement;
        return {
          all: (...params: unknown[]) => (filteredReadsFrom.push(params[0] as number), statement.all(...params)),
        };
      };
    },
  });
  const reads = sqliteLogReads(watched, {
    now: Date.now,
    onCommit: (listener) => {
      commits.on('commit', listener);
      return () => commits.off('commit', listener);
    },
    isClosed: () => false,
    pollIntervalMs: 600_000,
  });
  return { reads, write, filteredReadsFrom };
}

test('a filtered subscription moves past the non-matching rows it searched, not only to the last event it delivered', async (t) => {
  // Given one matching event followed by 1,000 non-matching ones
  const { reads, write, filteredReadsFrom } = watchedLog();
  write('incident-1', 'First');
  write('channel-1', 'Skip', 1000);
  const sub = reads.subscribeToAll({ streamPrefixes: ['incident-'] });
  const { seen, done } = collect(sub);
  await waitFor(() => seen.length === 1, { message: 'the first event' });
  // When more non-matching rows are committed, then a matching one
  write('channel-1', 'Skip');
  await waitFor(() => filteredReadsFrom.length === 2, { message: 'the read after the non-matching commit' });
  write('incident-1', 'Second');
  await waitFor(() => seen.length === 2, { message: 'the second event' });
  // Then each read started where the previous one stopped searching (position 1,001, then 1,002),
  // not after the first event (position 1), which would search those 1,000 rows every time
  t.deepEqual(filteredReadsFrom, [0, 1001, 1002]);
  t.deepEqual(
    seen.map((e) => [e.type, e.position]),
    [
      ['First', 1n],
      ['Second', 1003n],
    ],
  );
  await sub.close();
  await done;
});

test('an empty list of prefixes delivers nothing and still moves on', async (t) => {
  // Given a subscription that wants no stream
  const { reads, write, filteredReadsFrom } = watchedLog();
  const sub = reads.subscribeToAll({ streamPrefixes: [] });
  const { seen, done } = collect(sub);
  // When events are committed twice
  write('incident-1', 'A', 3);
  await waitFor(() => filteredReadsFrom.length === 1, { message: 'the first read' });
  write('incident-1', 'B');
  await waitFor(() => filteredReadsFrom.length === 2, { message: 'the second read' });
  // Then nothing was delivered, and the second read started after the rows the first one searched
  t.deepEqual(filteredReadsFrom, [0, 3]);
  t.deepEqual(seen, []);
  await sub.close();
  await done;
});
