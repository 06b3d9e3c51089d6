/**
 * Tombstones of the embedded read store, the counterpart of mongodb-tombstones.ts: a deleted
 * document leaves (id, pos) in `<table>__tombstones`, so a write for an older event cannot bring
 * it back. Here a batch and its checkpoint commit together, so the runner never redelivers an
 * applied event; the tombstones keep the port's contract for any caller that re-applies one (and
 * make the two adapters answer the same contract suite).
 */
import type Database from 'better-sqlite3';

export const tombstoneTableOf = (table: string) => `${table}__tombstones`;

/**
 * The position guard shared by the rows and their tombstones: the event at `position` may write
 * over a record at `recorded` when the record is older, or when this very event wrote it (a
 * projection may write one document several times for one event).
 */
export const mayOverwrite = (recorded: number | undefined, position: number, writtenByThisEvent: boolean) =>
  recorded === undefined || recorded < position || (recorded === position && writtenByThisEvent);

export function sqliteTombstones(prepare: (sql: string) => Database.Statement, exec: (sql: string) => void) {
  return {
    /** Creates the tombstone table of a collection table (called where the table itself is created). */
    ensure(table: string): void {
      exec(`CREATE TABLE IF NOT EXISTS ${tombstoneTableOf(table)} (id TEXT PRIMARY KEY, pos INTEGER NOT NULL)`);
    },
    positionOf(table: string, id: string): number | undefined {
      const row = prepare(`SELECT pos FROM ${tombstoneTableOf(table)} WHERE id = ?`).get(id) as
        | { pos: number }
        | undefined;
      return row?.pos;
    },
    record(table: string, id: string, position: number): void {
      prepare(
        `INSERT INTO ${tombstoneTableOf(table)} (id, pos) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET pos = MAX(pos, excluded.pos)`,
      ).run(id, position);
    },
  };
}
