import test from 'ava';
import { writeInBatches } from '../src/syncstore/batch-writer.js';
import type { SqlConnection, SqlRunner } from '../src/syncstore/sql-connection.js';

const row = (id: number) => ({
  env_id: 'e',
  cluster_id: 'c',
  query_id: id,
  end_time: new Date(0),
  synced_at: new Date(0),
});

/**
 * A connection whose transactions the test settles: each records the query ids it writes and
 * waits until released (or fails at once when told to).
 */
function scriptedConnection(parallelSessions: number, failing: (ids: number[]) => boolean) {
  const started: number[][] = [];
  const releases: (() => void)[] = [];
  const connection = {
    kind: 'postgresql',
    parallelSessions,
    query: async () => ({ rows: [], affectedRows: 0 }),
    close: async () => undefined,
    async transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
      let ids: number[] = [];
      const runner: SqlRunner = {
        async query(_sql, params) {
          ids = String((params as string[])[2])
            .slice(1, -1)
            .split(',')
            .map(Number);
          return { rows: [], affectedRows: ids.length } as never;
        },
      };
      const result = await work(runner);
      started.push(ids);
      if (failing(ids)) throw new Error(`refused batch ${ids.join(',')}`);
      await new Promise<void>((resolve) => releases.push(resolve));
      return result;
    },
  } as unknown as SqlConnection;
  return { connection, started, releaseAll: () => releases.splice(0).forEach((release) => release()) };
}

test('with three sessions, three batches are written at once and the fourth waits for a free one', async (t) => {
  const { connection, started, releaseAll } = scriptedConnection(3, () => false);
  const writing = writeInBatches(connection, 'query_history', [1, 2, 3, 4, 5, 6, 7, 8].map(row), {
    batchSize: 2,
    parallel: 3,
  });
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, [
    [1, 2],
    [3, 4],
    [5, 6],
  ]);
  releaseAll();
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started.at(-1), [7, 8]);
  releaseAll();
  t.is(await writing, 8);
});

test('a batch sharing a key with one in flight waits for it, so the later row still wins', async (t) => {
  const { connection, started, releaseAll } = scriptedConnection(3, () => false);
  const writing = writeInBatches(connection, 'query_history', [1, 2, 3, 1].map(row), { batchSize: 2, parallel: 3 });
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, [[1, 2]], 'the second batch holds key 1 too: not sent beside the first');
  releaseAll();
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, [
    [1, 2],
    [3, 1],
  ]);
  releaseAll();
  t.is(await writing, 4);
});

test('once a batch is refused no further batch is sent, the ones in flight finish, and the refusal is the error', async (t) => {
  const { connection, started, releaseAll } = scriptedConnection(3, (ids) => ids.includes(3));
  const source = Array.from({ length: 20 }, (_, index) => row(index + 1));
  const writing = writeInBatches(connection, 'query_history', source, { batchSize: 2, parallel: 3 });
  await new Promise((resolve) => setImmediate(resolve));
  releaseAll();
  await t.throwsAsync(writing, { message: 'refused batch 3,4' });
  t.deepEqual(
    started,
    [
      [1, 2],
      [3, 4],
    ],
    'no batch was sent after the refusal',
  );
});
