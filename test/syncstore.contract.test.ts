import test from 'ava';
import { migrate, MIGRATIONS } from '../src/syncstore/migrations.js';
import { createSyncStore, type SyncStore } from '../src/syncstore/store.js';
import { SYNC_TABLE_NAMES, SYNC_TABLES } from '../src/syncstore/tables.js';
import type { SqlConnection } from '../src/syncstore/sql-connection.js';
import type { SyncRow } from '../src/syncstore/upsert.js';
import { adaptersUnderTest, type AdapterUnderTest } from './support/sync-store-adapters.js';

async function withStore(
  adapter: AdapterUnderTest,
  run: (store: SyncStore, schema: string, connection: SqlConnection) => Promise<void>,
) {
  const { connection, schema } = await adapter.open();
  const store = createSyncStore(connection);
  try {
    await store.migrate();
    await run(store, schema, connection);
  } finally {
    await store.close();
    await adapter.cleanUp(schema);
  }
}

const queryRow = (queryId: number, overrides: Partial<SyncRow> = {}): SyncRow => ({
  env_id: 'env-a',
  cluster_id: 'cluster-1',
  query_id: queryId,
  user_name: 'etl',
  database_name: 'dev',
  queue: 'default',
  start_time: new Date(Date.UTC(2026, 0, 1, 0, 0, queryId)),
  end_time: new Date(Date.UTC(2026, 0, 1, 0, 1, queryId)),
  elapsed_ms: 60_000,
  rows_returned: queryId * 10,
  spilled_bytes: 0,
  query_text: `select ${queryId}`,
  synced_at: new Date(Date.UTC(2026, 0, 1, 1)),
  ...overrides,
});

const rows = (count: number) => Array.from({ length: count }, (_, index) => queryRow(index + 1));

for (const adapter of adaptersUnderTest) {
  test.serial(`${adapter.name}: migrations create every table with the documented columns and key`, async (t) => {
    await withStore(adapter, async (store, schema) => {
      for (const name of SYNC_TABLE_NAMES) {
        const columns = await store.query<{ column_name: string; data_type: string }>(
          'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
          [schema, name],
        );
        t.deepEqual(
          columns.map((column) => `${column.column_name} ${column.data_type}`),
          SYNC_TABLES[name].columns.map(
            (column) => `${column.name} ${column.type === 'timestamptz' ? 'timestamp with time zone' : column.type}`,
          ),
          name,
        );
        const key = await store.query<{ column_name: string }>(
          `SELECT kcu.column_name FROM information_schema.table_constraints tc
           JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
           WHERE tc.table_schema = $1 AND tc.table_name = $2 AND tc.constraint_type = 'PRIMARY KEY' ORDER BY kcu.ordinal_position`,
          [schema, name],
        );
        t.deepEqual(
          key.map((row) => row.column_name),
          SYNC_TABLES[name].key,
          `${name} key`,
        );
      }
    });
  });

  test.serial(
    `${adapter.name}: migrating again, or from two connections at once, applies each version once`,
    async (t) => {
      await withStore(adapter, async (store, schema, connection) => {
        t.is(await store.migrate(), MIGRATIONS.length);
        if (adapter.sessionsShareDatabase) {
          const second = await adapter.open(schema);
          const third = await adapter.open(schema);
          try {
            const versions = await Promise.all([migrate(second.connection), migrate(third.connection)]);
            t.deepEqual(versions, [MIGRATIONS.length, MIGRATIONS.length]);
          } finally {
            await second.connection.close();
            await third.connection.close();
          }
        } else {
          t.deepEqual(await Promise.all([migrate(connection), migrate(connection)]), [
            MIGRATIONS.length,
            MIGRATIONS.length,
          ]);
        }
        const applied = await store.query<{ version: number }>('SELECT version FROM schema_migrations');
        t.deepEqual(
          applied.map((row) => Number(row.version)),
          MIGRATIONS.map((migration) => migration.version),
        );
      });
    },
  );

  test.serial(
    `${adapter.name}: a later migration is applied on the next start, earlier ones are not re-run`,
    async (t) => {
      await withStore(adapter, async (store, schema, connection) => {
        const later = {
          version: MIGRATIONS.length + 1,
          name: 'add a column',
          sql: ['ALTER TABLE query_history ADD COLUMN label text'],
        };
        t.is(await migrate(connection, [...MIGRATIONS, later]), later.version);
        // Run twice: a re-applied ALTER would fail with "column already exists".
        t.is(await migrate(connection, [...MIGRATIONS, later]), later.version);
        const columns = await store.query(
          'SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND column_name = $2',
          [schema, 'label'],
        );
        t.is(columns.length, 1);
      });
    },
  );

  test.serial(
    `${adapter.name}: upserting the same rows twice keeps one row per key with the newest values`,
    async (t) => {
      await withStore(adapter, async (store) => {
        t.is(await store.upsert('query_history', rows(12), 5), 12);
        const changed = rows(12).map((row) => ({ ...row, rows_returned: 7, query_text: null }));
        t.is(await store.upsert('query_history', changed, 5), 12);
        t.is(await store.count('query_history'), 12);
        const stored = await store.query<{ rows_returned: string; query_text: string | null; end_time: Date }>(
          'SELECT rows_returned, query_text, end_time FROM query_history WHERE query_id = 3',
        );
        t.is(Number(stored[0]!.rows_returned), 7);
        t.is(stored[0]!.query_text, null);
        t.is(new Date(stored[0]!.end_time).toISOString(), '2026-01-01T00:01:03.000Z');
      });
    },
  );

  test.serial(`${adapter.name}: a key repeated within one batch keeps the last row`, async (t) => {
    await withStore(adapter, async (store) => {
      await store.upsert('query_history', [queryRow(1, { user_name: 'first' }), queryRow(1, { user_name: 'last' })]);
      const stored = await store.query<{ user_name: string }>('SELECT user_name FROM query_history');
      t.deepEqual(
        stored.map((row) => row.user_name),
        ['last'],
      );
    });
  });

  test.serial(
    `${adapter.name}: a run that dies mid-batch keeps whole batches, and a re-run leaves exactly the source rows`,
    async (t) => {
      await withStore(adapter, async (store) => {
        async function* crashingAfter(count: number) {
          for (const row of rows(12).slice(0, count)) yield row;
          throw new Error('killed');
        }
        await t.throwsAsync(store.upsert('query_history', crashingAfter(8), 5), { message: 'killed' });
        t.is(await store.count('query_history'), 5, 'the first batch committed, the partial second did not');
        await store.upsert('query_history', rows(12), 5);
        const ids = await store.query<{ query_id: string }>('SELECT query_id FROM query_history ORDER BY query_id');
        t.deepEqual(
          ids.map((row) => Number(row.query_id)),
          Array.from({ length: 12 }, (_, index) => index + 1),
        );
      });
    },
  );

  test.serial(`${adapter.name}: a row without a key column is refused and its batch writes nothing`, async (t) => {
    await withStore(adapter, async (store) => {
      await t.throwsAsync(store.upsert('query_history', [queryRow(1), queryRow(2, { query_id: undefined })]), {
        message: /query_id/,
      });
      t.is(await store.count('query_history'), 0);
    });
  });

  test.serial(
    `${adapter.name}: every table accepts an upsert keyed by its natural key; count filters by environment`,
    async (t) => {
      await withStore(adapter, async (store) => {
        const at = new Date('2026-02-01T00:00:00.000Z');
        const samples: Record<(typeof SYNC_TABLE_NAMES)[number], SyncRow> = {
          query_history: queryRow(1),
          table_storage: {
            env_id: 'env-a',
            cluster_id: 'c',
            schema_name: 'public',
            table_name: 'sales',
            size_mb: 10,
            tbl_rows: 100,
            unsorted_pct: 1.5,
            stats_off_pct: 0,
            skew_rows: 1.1,
            sampled_at: at,
            synced_at: at,
          },
          cluster_metrics: {
            env_id: 'env-a',
            cluster_id: 'c',
            metric: 'cpu_utilization',
            sampled_at: at,
            value: 42.5,
            synced_at: at,
          },
          wlm_queue_stats: {
            env_id: 'env-a',
            cluster_id: 'c',
            queue: 'etl',
            sampled_at: at,
            waiting: 2,
            executing: 3,
            avg_wait_ms: 1500,
            synced_at: at,
          },
          alert_events: {
            env_id: 'env-a',
            cluster_id: 'c',
            query_id: 9,
            event: 'Missing statistics',
            event_time: at,
            schema_name: 'public',
            table_name: 'sales',
            solution: 'ANALYZE',
            synced_at: at,
          },
        };
        for (const name of SYNC_TABLE_NAMES) {
          await store.upsert(name, [samples[name], { ...samples[name], env_id: 'env-b' }]);
          await store.upsert(name, [samples[name]]);
          t.is(await store.count(name), 2, name);
          t.is(await store.count(name, 'env-b'), 1, name);
        }
      });
    },
  );

  test.serial(
    `${adapter.name}: text survives the array encoding exactly: quotes, backslashes, braces, commas, NULL, empty, unicode`,
    async (t) => {
      await withStore(adapter, async (store) => {
        const texts = [
          'say "hi"',
          'C:\\temp\\x',
          '{a,b}',
          'a, b',
          'NULL',
          'null',
          '',
          ' padded ',
          'multi\nline\ttab',
          'zoë 東京 🚀',
          '\\"',
          '"',
        ];
        await store.upsert(
          'query_history',
          texts.map((text, index) => queryRow(index + 1, { query_text: text, user_name: text })),
          5,
        );
        const stored = await store.query<{ query_id: string; query_text: string; user_name: string }>(
          'SELECT query_id, query_text, user_name FROM query_history ORDER BY query_id',
        );
        t.deepEqual(
          stored.map((row) => row.query_text),
          texts,
        );
        t.deepEqual(
          stored.map((row) => row.user_name),
          texts,
        );
        await store.upsert('query_history', [queryRow(99, { query_text: 'nul\u0000byte', elapsed_ms: null })]);
        const [withNul] = await store.query<{ query_text: string; elapsed_ms: string | null }>(
          'SELECT query_text, elapsed_ms FROM query_history WHERE query_id = 99',
        );
        t.deepEqual(
          withNul,
          { query_text: 'nulbyte', elapsed_ms: null },
          'PostgreSQL text cannot hold NUL: it is dropped, the row kept',
        );
      });
    },
  );

  test.serial(
    `${adapter.name}: with batches in flight at once, a key repeated in a later batch still ends with the later row`,
    async (t) => {
      await withStore(adapter, async (store) => {
        // Batches of 2: query 1 is in the first, third and fifth batch; whatever runs in parallel, the last one wins.
        const source = [1, 2, 3, 4, 1, 5, 6, 7, 1, 8].map((id, index) => queryRow(id, { user_name: `v${index}` }));
        t.is(await store.upsert('query_history', source, 2), 10);
        const [one] = await store.query<{ user_name: string }>(
          'SELECT user_name FROM query_history WHERE query_id = 1',
        );
        t.is(one!.user_name, 'v8');
        t.is(await store.count('query_history'), 8);
      });
    },
  );

  test.serial(
    `${adapter.name}: a batch the server refuses fails the upsert with the server's reason and stops it`,
    async (t) => {
      await withStore(adapter, async (store) => {
        // 50 batches of 2; the second is refused. Batches sent before the refusal was known may
        // commit (how many depends on timing; test/sync-batch-writer.test.ts pins the rule down).
        const source = rows(100).map((row, index) => (index === 2 ? { ...row, elapsed_ms: 'not a number' } : row));
        await t.throwsAsync(store.upsert('query_history', source, 2), { message: /bigint|invalid input/i });
        const stored = await store.count('query_history');
        t.true(stored < 98, `the upsert stopped early: ${stored} of 98 good rows`);
        t.is(stored % 2, 0, 'whole batches only');
        const refused = await store.query('SELECT 1 FROM query_history WHERE query_id = 3');
        t.is(refused.length, 0, 'nothing of the refused batch');
      });
    },
  );

  test.serial(`${adapter.name}: ping answers while open`, async (t) => {
    await withStore(adapter, async (store) => {
      await t.notThrowsAsync(store.ping());
    });
  });
}
