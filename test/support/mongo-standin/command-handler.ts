/** What every stand-in command handler receives and returns, and the reply shapes they share. */
import type { Document } from 'bson';
import type { StandInStorage } from './storage.js';

export interface CommandContext {
  storage: StandInStorage;
  /** Database the command was sent to (`$db`). */
  database: string;
  connectionId: number;
}

/** Returns the reply document (with `ok: 1`); throws CommandError for `ok: 0` replies. */
export type CommandHandler = (command: Document, context: CommandContext) => Document;

/**
 * A cursor reply with everything in the first batch. Cursor id 0 tells the driver the cursor is
 * exhausted, so the stand-in never has to keep cursors; the id must be an int64, hence `0n`.
 */
export function cursorReply(namespace: string, documents: Document[]): Document {
  return { cursor: { firstBatch: documents, id: 0n, ns: namespace }, ok: 1 };
}

/** Splits "db.collection" (collection names may themselves contain dots). */
export function parseNamespace(namespace: string): { database: string; name: string } {
  const dot = namespace.indexOf('.');
  return { database: namespace.slice(0, dot), name: namespace.slice(dot + 1) };
}
