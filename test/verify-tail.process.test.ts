/**
 * Start-up checks the newest events of the embedded log against their chains
 * (src/eventstore/verify-tail.ts): a changed event in the tail is logged as an error naming it,
 * and the platform starts anyway.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { verifyLogTail } from '../src/eventstore/verify-tail.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { freePort, startPlatformProcess } from './support/platform-process.js';
import { waitFor } from './support/wait-for.js';

/** Six events in two streams no projection reads (positions 1–6), then position `changed`'s data changed in the file. */
async function tamperedLog(changed: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-tail-'));
  const filename = join(dataDir, 'events.db');
  const store = openSqliteEventStore({ filename });
  for (let i = 0; i < 3; i++)
    await store.append(`audit-trail-${i % 2}`, [sampleEvent('Noted', { i }), sampleEvent('Noted', { i: i + 10 })]);
  await store.close();
  const db = new Database(filename);
  db.prepare(`UPDATE events SET data = json_set(data, '$.i', 99) WHERE position = ?`).run(changed);
  db.close();
  return { dataDir, filename };
}

test('the tail check names a changed event inside the tail and does not see one before it', async (t) => {
  const { filename } = await tamperedLog(5);
  const { checked, breaks } = await verifyLogTail(filename);
  t.is(checked, 6);
  t.like(breaks, [{ stream: 'audit-trail-0', revision: '2', kind: 'content' }]);
  t.is(breaks.length, 1);
  t.deepEqual((await verifyLogTail(filename, 1)).breaks, [], 'position 5 is outside a tail of one event');
  t.is((await verifyLogTail(filename, 2)).breaks.length, 1);
});

test('a platform started on a log whose tail was changed logs the break and serves', async (t) => {
  const { dataDir } = await tamperedLog(6);
  const port = await freePort();
  const platform = await startPlatformProcess({
    DATA_DIR: dataDir,
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
  });
  t.teardown(() => void platform.child.kill('SIGKILL'));
  // Logged before the server listens, but the logger writes asynchronously: the line may reach the
  // output just after the listening banner the start waits for.
  const broken = /event log chain broken at stream audit-trail-0 revision 3 \(content\).*npm run verify/;
  await waitFor(() => broken.test(platform.output()), { timeoutMs: 30_000, message: 'the chain break logged' });
  t.regex(platform.output(), broken);
  t.is((await fetch(`http://127.0.0.1:${port}/health`)).status, 200);
});

test('the tail check names a stream whose oldest events were deleted (no retention) and events whose hashes were removed', async (t) => {
  const { filename } = await tamperedLog(0);
  const db = new Database(filename);
  // audit-trail-0 holds positions 1, 2, 5, 6 (revisions 0–3); audit-trail-1 positions 3, 4 (revisions 0–1).
  t.is(db.prepare(`DELETE FROM events WHERE stream = 'audit-trail-0' AND revision <= 1`).run().changes, 2);
  t.is(
    db.prepare(`UPDATE events SET hash = NULL, previous_hash = NULL WHERE stream = 'audit-trail-1'`).run().changes,
    2,
  );
  db.close();
  const { breaks } = await verifyLogTail(filename);
  t.like(breaks, [
    { stream: 'audit-trail-1', revision: '0', kind: 'unhashed' },
    { stream: 'audit-trail-1', revision: '1', kind: 'unhashed' },
    { stream: 'audit-trail-0', revision: '2', kind: 'start' },
  ]);
  t.is(breaks.length, 3);
  t.deepEqual(
    (await verifyLogTail(filename, 1)).breaks.map((found) => found.kind),
    ['start'],
    'a tail of one event still finds revision 0 of its stream gone',
  );
});

test('the tail check accepts a stream trimmed by its retention, and a tail that starts after revision 0 of an intact stream', async (t) => {
  const { filename } = await tamperedLog(0);
  const store = openSqliteEventStore({ filename });
  await store.setStreamRetention('audit-trail-1', { maxCount: 1 });
  await store.append('audit-trail-1', [sampleEvent('Noted', { i: 5 })]);
  await store.close();
  t.deepEqual((await verifyLogTail(filename)).breaks, []);
  t.deepEqual((await verifyLogTail(filename, 2)).breaks, []);
});
