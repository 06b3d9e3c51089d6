/**
 * The documents a batch has written on the embedded store and not yet stored (write-back within
 * the batch's transaction): a projection that writes one document for many events of a batch (a
 * channel created and updated nine times, an incident and its escalation steps) costs one row
 * write per document per batch instead of a read, a JSON parse, a guard lookup and a write per
 * event. Profiled on the start-up benchmark's log (bench/catch-up.ts under --cpu-prof), those
 * per-event statements were about a third of the catch-up's CPU time.
 * Everything that reads through SQL (a projection's get/find/count, deletes) stores them first,
 * so nothing ever reads around them; the batch stores the rest before its checkpoint, in the same
 * transaction, so a reader on the other connection never sees a batch in part.
 */
import type Database from 'better-sqlite3';
import { SqliteError } from 'better-sqlite3';
import { DuplicateKeyError, type Doc } from './port.js';

interface Pending {
  doc: Doc;
  /** The position of the event that wrote it last (what the row's `pos` will say). */
  pos: number;
  collection: string;
}

export type PendingWrites = ReturnType<typeof pendingWrites>;

export function pendingWrites(prepare: (sql: string) => Database.Statement) {
  /** Per table, per id. */
  const tables = new Map<string, Map<string, Pending>>();
  const of = (table: string) => {
    let pending = tables.get(table);
    if (!pending) tables.set(table, (pending = new Map()));
    return pending;
  };
  return {
    get: (table: string, id: string): Pending | undefined => tables.get(table)?.get(id),
    set(table: string, collection: string, doc: Doc, pos: number): void {
      of(table).set(doc.id, { doc, pos, collection });
    },
    /** Writes every pending document (before a read through SQL, and at the end of the batch). */
    store(): void {
      for (const [table, pending] of tables) {
        const upsert = prepare(
          `INSERT INTO ${table} (id, doc, pos) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, pos = excluded.pos`,
        );
        for (const { doc, pos, collection } of pending.values()) {
          try {
            upsert.run(doc.id, JSON.stringify(doc), pos);
          } catch (error) {
            if (error instanceof SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE')
              throw new DuplicateKeyError(collection, error.message);
            throw error;
          }
        }
      }
      tables.clear();
    },
  };
}
