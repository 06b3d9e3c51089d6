/**
 * Writes a stream of rows as batches over up to `parallel` sessions at once. Measured on the
 * local server (bench/sync.ts): one batch at a time leaves the server waiting on the encoder and
 * the encoder on the server; two or three in flight use both cores.
 *
 * Two batches that share a key are never in flight together: the later waits for the earlier, so
 * a later row still wins and two sessions never wait on each other's row locks (no deadlock).
 * Batches commit in any order otherwise; a crash can leave a later batch written and an earlier
 * one not, which is safe because a run's high-water mark is recorded only after every batch has
 * committed, so the re-run starts before both.
 */
import type { SqlConnection } from './sql-connection.js';
import type { SyncTableName } from './tables.js';
import { encodeBatch, writeBatch, type SyncRow } from './upsert.js';

interface Writing {
  keys: ReadonlySet<string>;
  done: Promise<void>;
}

const overlaps = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
};

export async function writeInBatches(
  connection: SqlConnection,
  table: SyncTableName,
  rows: Iterable<SyncRow> | AsyncIterable<SyncRow>,
  options: { batchSize: number; parallel: number },
): Promise<number> {
  const parallel = Math.max(1, Math.floor(options.parallel));
  let written = 0;
  let failure: { error: unknown } | undefined;
  const writing: Writing[] = [];

  const send = async (batch: SyncRow[]) => {
    const encoded = encodeBatch(table, batch);
    for (const earlier of writing.filter((w) => overlaps(w.keys, encoded.keys))) await earlier.done;
    while (writing.length >= parallel) await Promise.race(writing.map((w) => w.done));
    if (failure) throw failure.error;
    const entry: Writing = {
      keys: encoded.keys,
      done: connection
        .transaction((tx) => writeBatch(tx, encoded))
        .then(
          (n) => {
            written += n;
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => {
          writing.splice(writing.indexOf(entry), 1);
        }),
    };
    writing.push(entry);
  };

  try {
    let batch: SyncRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= options.batchSize) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
  } finally {
    // Never leave a write running behind the caller's back, whether we finish or fail.
    await Promise.all(writing.map((w) => w.done));
  }
  if (failure) throw failure.error;
  return written;
}
