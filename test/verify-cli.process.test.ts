/**
 * `npm run verify` (src/verify-cli.ts) on an embedded log: intact, then with one event's data
 * changed in events.db directly, then with one event deleted; and on EventStoreDB (the stand-in).
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { nodeEntry } from './support/node-entry.js';

const run = promisify(execFile);
const verify = (dataDir: string) =>
  spawnSync(process.execPath, nodeEntry('src/verify-cli.ts'), {
    env: { ...process.env, DATA_DIR: dataDir, EVENTSTORE_URL: '' },
    encoding: 'utf8',
  });

async function seededDataDir() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-verify-'));
  const store = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  for (let i = 0; i < 3; i++) {
    await store.append(`incident-${i}`, [
      sampleEvent('IncidentTriggered', { n: 0 }),
      sampleEvent('IncidentAcknowledged', { n: 1 }),
    ]);
    await store.append(`incident-${i}`, [sampleEvent('IncidentResolved', { n: 2 })], { expectedRevision: 1n });
  }
  await store.close();
  return dataDir;
}

const tamper = (dataDir: string, sql: string) => {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    return db.prepare(sql).run().changes;
  } finally {
    db.close();
  }
};

test('verify passes an intact log and names the event whose data was changed in events.db', async (t) => {
  const dataDir = await seededDataDir();
  const intact = verify(dataDir);
  t.is(intact.status, 0, intact.stderr);
  t.regex(intact.stdout, /event log intact: 9 events in 3 streams checked/);

  t.is(
    tamper(dataDir, `UPDATE events SET data = json_set(data, '$.n', 7) WHERE stream = 'incident-1' AND revision = 1`),
    1,
  );
  const broken = verify(dataDir);
  t.is(broken.status, 1);
  t.regex(
    broken.stderr,
    /chain broken at position 5, stream incident-1 revision 1: the event no longer matches its hash \(recorded [0-9a-f]{64}, its content hashes to [0-9a-f]{64}\)/,
  );
  t.regex(
    broken.stderr,
    /^1 break; 9 events in 3 streams checked/m,
    'the events after it still link to the hash it recorded',
  );
});

test('verify names a deleted event, a removed hash and a re-hashed event that no longer links', async (t) => {
  const dataDir = await seededDataDir();
  tamper(dataDir, `DELETE FROM events WHERE stream = 'incident-0' AND revision = 1`);
  tamper(dataDir, `UPDATE events SET hash = NULL WHERE stream = 'incident-2' AND revision = 2`);
  // A forger who changes revision 0 of incident-1 and re-hashes it: the next event's link betrays it.
  const db = new Database(join(dataDir, 'events.db'));
  const row = db
    .prepare<[], { data: string; metadata: string; type: string }>(
      `SELECT data, metadata, type FROM events WHERE stream = 'incident-1' AND revision = 0`,
    )
    .get()!;
  const { chainHash } = await import('../src/eventstore/event-chain.mjs');
  const forged = { n: 'forged' };
  db.prepare(`UPDATE events SET data = ?, hash = ? WHERE stream = 'incident-1' AND revision = 0`).run(
    JSON.stringify(forged),
    chainHash({
      stream: 'incident-1',
      revision: 0n,
      type: row.type,
      data: forged,
      metadata: JSON.parse(row.metadata),
      previousHash: null,
    }),
  );
  db.close();

  const broken = verify(dataDir);
  t.is(broken.status, 1);
  t.regex(
    broken.stderr,
    /chain broken at position 3, stream incident-0 revision 2: expected revision 1 next in the stream, found revision 2 \(an event is missing\)/,
  );
  t.regex(
    broken.stderr,
    /stream incident-1 revision 1: its previous hash is [0-9a-f]{64}, but the stream's previous event hashes to [0-9a-f]{64}/,
  );
  t.regex(
    broken.stderr,
    /stream incident-2 revision 2: the event has no hash although its stream's chain \(or the log's\) began before it/,
  );
  t.regex(broken.stderr, /^3 breaks;/m);
});

test('verify names a stream whose oldest events were deleted, unless it has retention, and a stream whose hashes were all removed', async (t) => {
  const dataDir = await seededDataDir();
  // Revisions 0–1 of incident-0 gone: revision 2 still hashes and links to a hash no longer stored.
  t.is(tamper(dataDir, `DELETE FROM events WHERE stream = 'incident-0' AND revision <= 1`), 2);
  // Every hash of incident-1 removed, then an event edited: it would pass as written before the chain.
  t.is(tamper(dataDir, `UPDATE events SET hash = NULL, previous_hash = NULL WHERE stream = 'incident-1'`), 3);
  t.is(
    tamper(
      dataDir,
      `UPDATE events SET data = json_set(data, '$.n', 'forged') WHERE stream = 'incident-1' AND revision = 1`,
    ),
    1,
  );
  const broken = verify(dataDir);
  t.is(broken.status, 1);
  t.regex(
    broken.stderr,
    /stream incident-0 revision 2: the stream's oldest stored event, but the stream has no retention, so its events before it were removed/,
  );
  t.regex(
    broken.stderr,
    /stream incident-1 revision 0: the event has no hash although its stream's chain \(or the log's\) began before it/,
  );
  t.regex(broken.stderr, /^4 breaks;/m, 'one missing start, three unhashed events');

  // The same missing start in a stream with retention is what retention does.
  const trimmed = await seededDataDir();
  const store = openSqliteEventStore({ filename: join(trimmed, 'events.db') });
  await store.setStreamRetention('incident-2', { maxCount: 1 });
  await store.append('incident-2', [sampleEvent('IncidentNoteAdded', { n: 3 })], { expectedRevision: 2n });
  await store.close();
  const retained = verify(trimmed);
  t.is(retained.status, 0, retained.stderr);
  t.regex(retained.stdout, /event log intact: 7 events in 3 streams checked$/m);
});

test('a log written before the chain start was recorded (no record) verifies as before, and says so', async (t) => {
  const dataDir = await seededDataDir();
  tamper(dataDir, 'DROP TABLE log_meta');
  tamper(dataDir, `DELETE FROM events WHERE stream = 'incident-0' AND revision <= 1`);
  const legacy = verify(dataDir);
  t.is(legacy.status, 0, legacy.stderr);
  t.regex(
    legacy.stdout,
    /event log intact: 7 events in 3 streams checked; no record of where the chain started \(a log written before it\): unhashed events and missing stream starts not judged/,
  );
  // Opening it for writing records the chain start (its first hashed event): from then on both are judged.
  await openSqliteEventStore({ filename: join(dataDir, 'events.db') }).close();
  t.is(verify(dataDir).status, 1);
});

test('verify refuses a DATA_DIR without a log, and unknown arguments', (t) => {
  const empty = verify(mkdtempSync(join(tmpdir(), 'ww-verify-empty-')));
  t.is(empty.status, 1);
  t.regex(empty.stderr, /no event store at .*events\.db: nothing to verify/);
  const usage = spawnSync(process.execPath, [...nodeEntry('src/verify-cli.ts'), '--fix'], { encoding: 'utf8' });
  t.is(usage.status, 2);
  t.regex(usage.stderr, /unexpected argument --fix; usage: npm run verify/);
});

// Serial: the other tests' spawnSync would block this process, and so the stand-in it serves.
test.serial('verify walks an EventStoreDB log too and names an event changed on the server', async (t) => {
  const { startEventStoreStandIn } = await import('./support/esdb-standin/server.js');
  const { createEventStoreDbStore } = await import('../src/eventstore/eventstoredb.js');
  const standIn = await startEventStoreStandIn();
  t.teardown(() => standIn.stop());
  const store = createEventStoreDbStore(standIn.connectionString);
  await store.append(
    'incident-a',
    [sampleEvent('IncidentTriggered', { n: 0 }), sampleEvent('IncidentAcknowledged', { n: 1 })],
    { expectedRevision: 'no_stream' },
  );
  await store.append('incident-a', [sampleEvent('IncidentResolved', { n: 2 })], { expectedRevision: 1n });
  await store.append('incident-b', [sampleEvent('IncidentTriggered', { n: 0 })]);
  await store.close();
  // Asynchronously: the stand-in answers from this process.
  const verifyEsdb = () =>
    run(process.execPath, nodeEntry('src/verify-cli.ts'), {
      env: { ...process.env, EVENTSTORE_URL: standIn.connectionString },
    }).then(
      (done) => ({ status: 0, stdout: done.stdout, stderr: done.stderr }),
      (failed: { code: number; stdout: string; stderr: string }) => ({
        status: failed.code,
        stdout: failed.stdout,
        stderr: failed.stderr,
      }),
    );
  const intact = await verifyEsdb();
  t.is(intact.status, 0, intact.stderr);
  t.regex(intact.stdout, /event log intact: 4 events in 2 streams checked/);

  t.true(standIn.rewriteEventData('incident-a', 1n, { n: 'changed' }));
  const broken = await verifyEsdb();
  t.is(broken.status, 1);
  t.regex(broken.stderr, /stream incident-a revision 1: the event no longer matches its hash/);

  // An event appended by another client, without a hash, after the log's chain start.
  const { EventStoreDBClient, jsonEvent } = await import('@eventstore/db-client');
  const raw = EventStoreDBClient.connectionString(standIn.connectionString);
  const plain = sampleEvent('IncidentNoteAdded', { n: 1 });
  await raw.appendToStream(
    'incident-b',
    jsonEvent({ type: plain.type, data: plain.data, metadata: plain.metadata as never }),
  );
  await raw.dispose();
  const unhashed = await verifyEsdb();
  t.is(unhashed.status, 1);
  t.regex(
    unhashed.stderr,
    /stream incident-b revision 1: the event has no hash although its stream's chain \(or the log's\) began before it/,
  );
});
