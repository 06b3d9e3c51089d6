/**
 * Every long-lived SQLite connection's page cache is bounded (src/sqlite/page-cache.ts): a writer's
 * cache keeps each page it appends, so an unbounded or large one grows RSS with the files for hours
 * (issue 39's soak, bench/README.md "Soak").
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLogConnection } from '../src/eventstore/sqlite-connection.js';
import { openReadModelConnections } from '../src/readstore/sqlite-connections.js';
import { PAGE_CACHE_KIB } from '../src/sqlite/page-cache.js';

const cacheKib = (db: { pragma(sql: string, options: { simple: true }): unknown }) =>
  -Number(db.pragma('cache_size', { simple: true }));

test('the bound fills within the soak warm-up: 8 MiB at most per connection', (t) => {
  // At the soak's 100 requests/s the log grows about 1.2 MB/min: a larger cache grows past its 10-minute warm-up.
  t.true(PAGE_CACHE_KIB <= 8 * 1024, `${PAGE_CACHE_KIB} KiB`);
});

test("the event log's connections (the writer thread's and the readers') keep at most the bound", (t) => {
  const db = openLogConnection(join(mkdtempSync(join(tmpdir(), 'page-cache-')), 'events.db'));
  t.teardown(() => db.close());
  t.is(cacheKib(db), PAGE_CACHE_KIB);
});

test("the read-model file's writer and reader keep at most the bound", (t) => {
  const { writerDb, readerDb } = openReadModelConnections(join(mkdtempSync(join(tmpdir(), 'page-cache-')), 'rm.db'));
  t.teardown(() => {
    readerDb.close();
    writerDb.close();
  });
  t.is(cacheKib(writerDb), PAGE_CACHE_KIB);
  t.is(cacheKib(readerDb), PAGE_CACHE_KIB);
});
