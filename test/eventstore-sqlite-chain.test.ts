import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { chainBreaks } from './support/eventstore-chain-contract.js';
import { sampleEvent } from './support/eventstore-contract.js';

test("a log written before the chain gains its columns; a stream's chain starts at its first event appended afterwards", async (t) => {
  const filename = join(mkdtempSync(join(tmpdir(), 'es-chain-')), 'events.db');
  // The events table as it was before the chain: no hash columns.
  const old = new Database(filename);
  old.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE UNIQUE INDEX events_stream_revision ON events (stream, revision);`);
  const legacy = sampleEvent('Legacy', { n: 0 });
  old
    .prepare('INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, 0, ?, ?, ?, 0)')
    .run('e-0', 's-1', legacy.type, JSON.stringify(legacy.data), JSON.stringify(legacy.metadata));
  old.close();

  const store = openSqliteEventStore({ filename });
  await store.append('s-1', [sampleEvent('A'), sampleEvent('B')], { expectedRevision: 0n });
  const [before, ...hashed] = await store.readStream('s-1');
  t.is(before!.chain, undefined, 'an event written before the chain has no hash');
  t.is(hashed[0]!.chain?.previousHash, null, 'the chain starts at the first hashed event');
  t.deepEqual(chainBreaks(hashed), []);
  await store.close();
});
