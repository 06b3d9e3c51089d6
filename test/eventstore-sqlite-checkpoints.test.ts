/**
 * The event log's WAL is copied back into the database by the background checkpointer on the
 * writer thread, not inside a group commit (whose own limit is far higher), and closing the store
 * stops that thread.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { WRITER_FALLBACK_PAGES } from '../src/sqlite/background-checkpointer.js';
import { waitFor } from './support/wait-for.js';

const fileSize = (path: string) => statSync(path).size;
const metadata = () => ({
  tenantId: randomUUID(),
  actor: 'test',
  correlationId: randomUUID(),
  causationId: randomUUID(),
  occurredAt: new Date().toISOString(),
});

test('appended events reach the log file through the background checkpointer, far below the writer threshold', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-ckpt-')), 'events.db');
  const store = openSqliteEventStore({ filename: file });
  await store.append('warm-up', [{ type: 'Noted', data: {}, metadata: metadata() }]);
  const before = fileSize(file);
  // Given some 200 events in a few group commits: a few dozen WAL pages, far under SQLite's
  // default limit (1,000) and the writer's own (10,000), so only the background thread copies them.
  for (let batch = 0; batch < 4; batch++) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.append(`thing-${randomUUID()}`, [
          { type: 'Noted', data: { text: 'x'.repeat(400) }, metadata: metadata() },
        ]),
      ),
    );
  }
  const walPages = fileSize(`${file}-wal`) / 4096;
  t.true(walPages < WRITER_FALLBACK_PAGES, `the WAL holds ${walPages} pages, below the writer's threshold`);

  // Then the database file grows to hold them without another commit.
  await waitFor(() => fileSize(file) > before + 80_000, {
    timeoutMs: 10_000,
    message: 'the checkpointer to copy the WAL into the log file',
  });
  t.is((await store.readAll()).length, 201);
  // And closing the store stops the thread (close would not resolve while its connection is open).
  await store.close();
});
