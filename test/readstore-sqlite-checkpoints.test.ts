/**
 * The read-model file's WAL is copied back into the database by the background checkpointer,
 * not by the projections' commits (whose own limit is far higher), and closing the store stops
 * that thread.
 */
import test from 'ava';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { WRITER_FALLBACK_PAGES } from '../src/sqlite/background-checkpointer.js';
import { waitFor } from './support/wait-for.js';

const fileSize = (path: string) => statSync(path).size;

test('committed batches reach the database file through the background checkpointer, far below the writer threshold', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-ckpt-')), 'read.db');
  const store = openSqliteReadStore(file);
  const before = fileSize(file);
  // Given a few batches: well under the writer's own checkpoint threshold, so only the background
  // thread can copy them into the database file.
  const docs = Array.from({ length: 200 }, (_, i) => ({ id: `doc-${i}`, body: 'x'.repeat(400) }));
  let position = 1n;
  for (let batch = 0; batch < 4; batch++) {
    await store.applyBatch(
      { projection: 'p', version: 1 },
      docs.slice(batch * 50, batch * 50 + 50).map((doc) => ({ position: position++, doc })),
      async (event, writer) => writer.upsert('things', event.doc),
    );
  }
  const walPages = fileSize(`${file}-wal`) / 4096;
  t.true(walPages < WRITER_FALLBACK_PAGES, `the WAL holds ${walPages} pages, below the writer's threshold`);

  // Then the database file grows to hold them without another commit.
  await waitFor(() => fileSize(file) > before + 80_000, {
    timeoutMs: 10_000,
    message: 'the checkpointer to copy the WAL into the database',
  });
  t.is((await store.get('things', 'doc-199'))?.body, 'x'.repeat(400));
  // And closing the store stops the thread (a running one would keep this worker process busy,
  // and close would not resolve).
  await store.close();
});
