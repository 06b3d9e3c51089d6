/**
 * The writer handed to a projection for one event on the embedded store: position-guarded like the
 * MongoDB writer (a record newer than the event stays), but several writes to one document in one
 * event all apply, and a delete leaves a tombstone (sqlite-tombstones.ts).
 */
import type Database from 'better-sqlite3';
import { SqliteError } from 'better-sqlite3';
import { DuplicateKeyError, type Doc, type ReadModelReader, type ReadModelWriter } from './port.js';
import { whereClause } from './sqlite-query.js';
import { mayOverwrite, type sqliteTombstones } from './sqlite-tombstones.js';

export interface SqliteWriterDeps {
  prepare: (sql: string) => Database.Statement;
  /** The table of a physical collection, created (with its tombstone table) on first use. */
  ensureTable: (collection: string) => string;
  /** Reads through the writing connection, inside the batch's transaction. */
  inTransaction: ReadModelReader;
  tombstones: ReturnType<typeof sqliteTombstones>;
}

export function sqliteEventWriter(
  deps: SqliteWriterDeps,
  position: number,
  physical: (name: string) => string,
): ReadModelWriter {
  const { prepare, ensureTable, inTransaction, tombstones } = deps;
  const writtenThisEvent = new Set<string>();
  const ours = (table: string, id: string) => writtenThisEvent.has(`${table}/${id}`);
  const rowPosition = (table: string, id: string) =>
    (prepare(`SELECT pos FROM ${table} WHERE id = ?`).get(id) as { pos: number } | undefined)?.pos;
  const write = (collection: string, doc: Doc) => {
    const table = ensureTable(collection);
    if (!mayOverwrite(rowPosition(table, doc.id), position, ours(table, doc.id))) return;
    // Deleted by this event's position or a later one: stays deleted (see sqlite-tombstones.ts).
    if (!mayOverwrite(tombstones.positionOf(table, doc.id), position, ours(table, doc.id))) return;
    try {
      prepare(
        `INSERT INTO ${table} (id, doc, pos) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, pos = excluded.pos`,
      ).run(doc.id, JSON.stringify(doc), position);
    } catch (error) {
      if (error instanceof SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new DuplicateKeyError(collection, error.message);
      throw error;
    }
    writtenThisEvent.add(`${table}/${doc.id}`);
  };
  /** Deletes what this event may overwrite and leaves a tombstone; a newer document stays. */
  const remove = (table: string, id: string, recorded: number | undefined): boolean => {
    if (!mayOverwrite(recorded, position, ours(table, id))) return false;
    const deleted = prepare(`DELETE FROM ${table} WHERE id = ?`).run(id).changes > 0;
    tombstones.record(table, id, position);
    writtenThisEvent.add(`${table}/${id}`);
    return deleted;
  };
  return {
    get: (c, id) => inTransaction.get(physical(c), id),
    find: (c, filter, options) => inTransaction.find(physical(c), filter, options),
    count: (c, filter) => inTransaction.count(physical(c), filter),
    async upsert(c, doc) {
      write(physical(c), doc);
    },
    async patch(c, id, fields) {
      const existing = await inTransaction.get(physical(c), id);
      if (existing) write(physical(c), { ...existing, ...fields, id });
    },
    async delete(c, id) {
      const table = ensureTable(physical(c));
      remove(table, id, rowPosition(table, id));
    },
    async deleteMany(c, filter) {
      const table = ensureTable(physical(c));
      const where = whereClause(filter);
      const matching = prepare(`SELECT id, pos FROM ${table} WHERE ${where.sql}`).all(...where.params) as {
        id: string;
        pos: number;
      }[];
      return matching.filter((row) => remove(table, row.id, row.pos)).length;
    },
  };
}
