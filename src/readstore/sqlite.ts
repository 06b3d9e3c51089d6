/**
 * Embedded read store: one SQLite file, a table per collection holding JSON documents.
 * Projections write through one connection inside a transaction that also stores the checkpoint;
 * queries read through a second, read-only connection, so they never see a half-applied batch.
 * The read model can always be rebuilt from the log, so synchronous=NORMAL is enough here.
 */
import Database, { SqliteError } from 'better-sqlite3';
import {
  ReadStoreUnavailableError,
  type Checkpoint,
  type Doc,
  type FindOptions,
  type Filter,
  type IndexSpec,
  type ReadModelReader,
  type ReadStore,
} from './port.js';
import { afterClause, fieldExpression, orderBy, whereClause } from './sqlite-query.js';
import { serialLock } from './serial-lock.js';
import { checkpointInBackground, type BackgroundCheckpointer } from '../sqlite/background-checkpointer.js';
import { sqliteTombstones, tombstoneTableOf } from './sqlite-tombstones.js';
import { sqliteBatchWriter } from './sqlite-writer.js';
import { pendingWrites } from './sqlite-pending-writes.js';
import { DamagedFileError, isDamagedFileError, namingDamage } from '../sqlite/damaged-file.js';
import { openReadModelConnections } from './sqlite-connections.js';

/** What recovers a damaged read-model file (every message about one names it). */
export const READ_MODELS_RECOVERY =
  'it holds read models only, derived from the event log: stop the platform and run `npm run rebuild`, which sets the damaged file aside and rebuilds it from the log';

const COLLECTION_NAME = /^[A-Za-z0-9_]+$/;
const tableOf = (collection: string) => {
  if (!COLLECTION_NAME.test(collection)) throw new Error(`invalid collection name: ${collection}`);
  return `rm_${collection}`;
};

type Db = Database.Database;

function cachedPrepare(db: Db) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

const missingTable = (error: unknown) => error instanceof SqliteError && /no such table/.test(error.message);

function readerOn(db: Db): ReadModelReader {
  const prepare = cachedPrepare(db);
  const guard = <T>(fallback: T, run: () => T): T => {
    if (!db.open) throw new ReadStoreUnavailableError('the read store is closed');
    try {
      return run();
    } catch (error) {
      if (missingTable(error)) return fallback;
      throw error;
    }
  };
  return {
    async get<T extends Doc>(collection: string, id: string) {
      return guard(null, () => {
        const row = prepare(`SELECT doc FROM ${tableOf(collection)} WHERE id = ?`).get(id) as
          | { doc: string }
          | undefined;
        return row ? (JSON.parse(row.doc) as T) : null;
      });
    },
    async find<T extends Doc>(collection: string, filter: Filter, options: FindOptions = {}) {
      return guard([] as T[], () => {
        const where = whereClause(filter);
        const after = options.after ? afterClause(options.sort, options.after) : { sql: '1', params: [] };
        // LIMIT is part of the text, not a bound parameter: SQLite re-plans statements whose bound
        // LIMIT changes, which costs more than a small query itself.
        const limit = options.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.trunc(options.limit))}`;
        const sql = `SELECT doc FROM ${tableOf(collection)} WHERE (${where.sql}) AND (${after.sql}) ORDER BY ${orderBy(options.sort)}${limit}`;
        const rows = prepare(sql).all(...where.params, ...after.params) as { doc: string }[];
        return rows.map((row) => JSON.parse(row.doc) as T);
      });
    },
    async count(collection: string, filter: Filter) {
      return guard(0, () => {
        const where = whereClause(filter);
        const row = prepare(`SELECT COUNT(*) AS n FROM ${tableOf(collection)} WHERE ${where.sql}`).get(
          ...where.params,
        ) as { n: number };
        return row.n;
      });
    },
  };
}

/**
 * Opens the read store; a damaged file's errors (at open, and from any call later) name the file
 * and `npm run rebuild`, and once one was met, ping() reports it (/health).
 */
export function openSqliteReadStore(filename: string): ReadStore {
  const store = namingDamage(filename, READ_MODELS_RECOVERY, () => openStore(filename));
  let damage: DamagedFileError | undefined;
  const watched =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method(...args);
      } catch (error) {
        if (!isDamagedFileError(error)) throw error;
        const named =
          error instanceof DamagedFileError
            ? error
            : new DamagedFileError(filename, error as Error, READ_MODELS_RECOVERY);
        damage ??= named;
        throw named;
      }
    };
  return {
    get: watched(store.get),
    find: watched(store.find),
    count: watched(store.count),
    ensureIndexes: watched(store.ensureIndexes),
    getCheckpoint: watched(store.getCheckpoint),
    applyBatch: watched(store.applyBatch),
    setCheckpoint: watched(store.setCheckpoint),
    dropCollection: watched(store.dropCollection),
    replaceCollection: watched(store.replaceCollection),
    replaceCollections: watched(store.replaceCollections),
    ping: watched(async () => {
      if (damage) throw damage;
      await store.ping();
    }),
    close: () => store.close(),
  } as ReadStore;
}

function openStore(filename: string): ReadStore {
  const { writerDb, readerDb } = openReadModelConnections(filename);

  const prepare = cachedPrepare(writerDb);
  const reader = readerOn(readerDb);
  const inTransaction = readerOn(writerDb);
  const lock = serialLock();
  const knownTables = new Set<string>();
  const indexSpecs = new Map<string, IndexSpec[]>();
  const tombstones = sqliteTombstones(prepare, (sql) => writerDb.exec(sql));
  let closed = false;
  // Started by the first batch: the main thread opens this store too, only to read, and a
  // connection that never writes needs no checkpoints.
  let checkpointer: BackgroundCheckpointer | undefined;
  const inMemory = filename === ':memory:' || filename === '';

  const ensureTable = (collection: string) => {
    const table = tableOf(collection);
    if (knownTables.has(table)) return table;
    writerDb.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, pos INTEGER NOT NULL)`);
    tombstones.ensure(table);
    knownTables.add(table);
    return table;
  };

  const createIndexes = (collection: string, indexes: IndexSpec[]) => {
    const table = ensureTable(collection);
    for (const index of indexes) {
      const columns = index.fields.map(fieldExpression).join(', ');
      writerDb.exec(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${table}__${index.name} ON ${table} (${columns})`,
      );
    }
  };

  const store: ReadStore = {
    get: (c, id) => reader.get(c, id),
    find: (c, filter, options) => reader.find(c, filter, options),
    count: (c, filter) => reader.count(c, filter),

    async ensureIndexes(collection, indexes) {
      indexSpecs.set(collection, indexes);
      createIndexes(collection, indexes);
    },

    async getCheckpoint(projection) {
      const row = prepare('SELECT position, version FROM _checkpoints WHERE projection = ?').get(projection) as
        | { position: number; version: number }
        | undefined;
      return row ? { position: BigInt(row.position), version: row.version } : null;
    },

    applyBatch(options, events, apply) {
      return lock(async () => {
        if (events.length === 0) return;
        if (!checkpointer && !inMemory) checkpointer = checkpointInBackground(writerDb, filename);
        const physical = options.collectionNames ?? ((name: string) => name);
        const pending = pendingWrites(prepare);
        const writer = sqliteBatchWriter({ prepare, ensureTable, inTransaction, tombstones, pending }, physical);
        prepare('BEGIN IMMEDIATE').run();
        try {
          for (const event of events) {
            writer.beginEvent(Number(event.position));
            await apply(event, writer);
          }
          pending.store();
          saveCheckpoint(options.projection, { position: events.at(-1)!.position, version: options.version });
          prepare('COMMIT').run();
        } catch (error) {
          // SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
          // then fails with "no transaction is active" and would hide the cause being thrown.
          if (writerDb.inTransaction) prepare('ROLLBACK').run();
          throw error;
        }
      });
    },

    async setCheckpoint(projection, checkpoint) {
      await lock(async () => saveCheckpoint(projection, checkpoint));
    },

    async dropCollection(collection) {
      await lock(async () => {
        writerDb.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
        writerDb.exec(`DROP TABLE IF EXISTS ${tombstoneTableOf(tableOf(collection))}`);
        knownTables.delete(tableOf(collection));
      });
    },

    replaceCollection: (source, target) => store.replaceCollections([{ source, target }]),

    async replaceCollections(swaps) {
      await lock(async () => {
        // One transaction for every collection: the reading connection sees all old or all new.
        // IMMEDIATE, like applyBatch: the rebuild CLI may write this file from another process.
        writerDb.transaction(() => swaps.forEach(({ source, target }) => renameOver(source, target))).immediate();
        for (const { source, target } of swaps) {
          knownTables.delete(tableOf(source));
          knownTables.delete(tableOf(target));
          createIndexes(target, indexSpecs.get(target) ?? indexSpecs.get(source) ?? []);
        }
      });
    },

    async ping() {
      if (closed) throw new ReadStoreUnavailableError('read store is closed');
      readerDb.prepare('SELECT 1').get();
    },

    async close() {
      if (closed) return;
      await lock(async () => {
        closed = true;
        await checkpointer?.stop();
        readerDb.close();
        writerDb.close();
      });
    },
  };

  /** Drops `target` and renames `source` (and its tombstones) to it, inside the caller's transaction. */
  function renameOver(source: string, target: string) {
    const from = ensureTable(source);
    const to = tableOf(target);
    writerDb.exec(`DROP TABLE IF EXISTS ${to}`);
    writerDb.exec(`ALTER TABLE ${from} RENAME TO ${to}`);
    // The tombstones follow their documents (ensureTable created both).
    writerDb.exec(`DROP TABLE IF EXISTS ${tombstoneTableOf(to)}`);
    writerDb.exec(`ALTER TABLE ${tombstoneTableOf(from)} RENAME TO ${tombstoneTableOf(to)}`);
    // Indexes keep their old names through a rename; the caller recreates them under the target's names.
    const renamed = writerDb
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(to) as { name: string }[];
    for (const { name } of renamed) writerDb.exec(`DROP INDEX IF EXISTS "${name}"`);
  }

  function saveCheckpoint(projection: string, checkpoint: Checkpoint) {
    prepare(
      'INSERT INTO _checkpoints (projection, position, version) VALUES (?, ?, ?) ON CONFLICT(projection) DO UPDATE SET position = excluded.position, version = excluded.version',
    ).run(projection, Number(checkpoint.position), checkpoint.version);
  }

  return store;
}
