/**
 * The writer handed to a projection for one event on the embedded store: position-guarded like the
 * MongoDB writer (a record newer than the event stays), but several writes to one document in one
 * event all apply, and a delete leaves a tombstone (sqlite-tombstones.ts). Upserts and patches go
 * to the batch's pending writes (sqlite-pending-writes.ts); reads through SQL and deletes store
 * them first.
 */
import type Database from 'better-sqlite3';
import type { Doc, ReadModelReader, ReadModelWriter } from './port.js';
import type { PendingWrites } from './sqlite-pending-writes.js';
import { whereClause } from './sqlite-query.js';
import { mayOverwrite, type sqliteTombstones } from './sqlite-tombstones.js';

export interface SqliteWriterDeps {
  prepare: (sql: string) => Database.Statement;
  /** The table of a physical collection, created (with its tombstone table) on first use. */
  ensureTable: (collection: string) => string;
  /** Reads through the writing connection, inside the batch's transaction. */
  inTransaction: ReadModelReader;
  tombstones: ReturnType<typeof sqliteTombstones>;
  /** The batch's documents written and not stored yet. */
  pending: PendingWrites;
}

/** A writer over one batch: `beginEvent` before each event's writes (one object per batch, not per event). */
export function sqliteBatchWriter(
  deps: SqliteWriterDeps,
  physical: (name: string) => string,
): ReadModelWriter & { beginEvent(position: number): void } {
  const { prepare, ensureTable, tombstones, pending } = deps;
  let position = -1;
  // Reads through SQL see every write before them: the pending ones are stored first.
  const inTransaction: ReadModelReader = {
    get: (c, id) => (pending.store(), deps.inTransaction.get(c, id)),
    find: (c, filter, options) => (pending.store(), deps.inTransaction.find(c, filter, options)),
    count: (c, filter) => (pending.store(), deps.inTransaction.count(c, filter)),
  };
  const writtenThisEvent = new Set<string>();
  const ours = (table: string, id: string) => writtenThisEvent.has(`${table}/${id}`);
  const rowPosition = (table: string, id: string) =>
    (prepare(`SELECT pos FROM ${table} WHERE id = ?`).get(id) as { pos: number } | undefined)?.pos;
  const write = (collection: string, doc: Doc) => {
    const table = ensureTable(collection);
    const waiting = pending.get(table, doc.id);
    if (waiting) {
      // Its tombstone, if any, was older than the write that made it pending (deletes store first).
      if (!mayOverwrite(waiting.pos, position, ours(table, doc.id))) return;
    } else {
      if (!mayOverwrite(rowPosition(table, doc.id), position, ours(table, doc.id))) return;
      // Deleted by this event's position or a later one: stays deleted (see sqlite-tombstones.ts).
      if (!mayOverwrite(tombstones.positionOf(table, doc.id), position, ours(table, doc.id))) return;
    }
    pending.set(table, collection, doc, position);
    writtenThisEvent.add(`${table}/${doc.id}`);
  };
  /** The document as the batch has it: pending, else stored (parsed fresh, like any read). */
  const current = (collection: string, id: string): Promise<Doc | null> => {
    const waiting = pending.get(ensureTable(collection), id);
    return waiting ? Promise.resolve(waiting.doc) : deps.inTransaction.get(collection, id);
  };
  /** Deletes what this event may overwrite and leaves a tombstone; a newer document stays. */
  const remove = (table: string, id: string, recorded: number | undefined): boolean => {
    pending.store();
    if (!mayOverwrite(recorded, position, ours(table, id))) return false;
    const deleted = prepare(`DELETE FROM ${table} WHERE id = ?`).run(id).changes > 0;
    tombstones.record(table, id, position);
    writtenThisEvent.add(`${table}/${id}`);
    return deleted;
  };
  return {
    beginEvent(next: number) {
      position = next;
      writtenThisEvent.clear();
    },
    get: (c, id) => inTransaction.get(physical(c), id),
    find: (c, filter, options) => inTransaction.find(physical(c), filter, options),
    count: (c, filter) => inTransaction.count(physical(c), filter),
    async upsert(c, doc) {
      write(physical(c), doc);
    },
    async patch(c, id, fields) {
      // A new object: the pending document itself is never changed in place.
      const existing = await current(physical(c), id);
      if (existing) write(physical(c), { ...existing, ...fields, id });
    },
    async delete(c, id) {
      const table = ensureTable(physical(c));
      pending.store();
      remove(table, id, rowPosition(table, id));
    },
    async deleteMany(c, filter) {
      const table = ensureTable(physical(c));
      pending.store();
      const where = whereClause(filter);
      const matching = prepare(`SELECT id, pos FROM ${table} WHERE ${where.sql}`).all(...where.params) as {
        id: string;
        pos: number;
      }[];
      return matching.filter((row) => remove(table, row.id, row.pos)).length;
    },
  };
}
