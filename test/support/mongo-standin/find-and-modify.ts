/**
 * findAndModify (what the driver's findOneAndDelete/-Update/-Replace send): the first document the
 * query matches (in `sort` order) is removed or updated in one step, and returned (before the
 * change, or after it with `new: true`). The option rules are the server's: exactly one of
 * `remove` and `update`; `remove` with `new` or `upsert` is refused.
 */
import type { Document } from 'bson';
import { CommandError } from './command-error.js';
import type { CommandHandler } from './command-handler.js';
import { projectDocuments, runFind } from './query-engine.js';
import { updatedDocument, upsertDocument } from './write-commands.js';

const returned = (doc: Document | null, fields: Document | undefined) =>
  doc === null ? null : projectDocuments([doc], fields)[0]!;

export const findAndModify: CommandHandler = (command, { storage, database }) => {
  const name = String(command.findAndModify ?? command.findandmodify);
  const remove = command.remove === true;
  const u = command.update as Document | Document[] | undefined;
  const fields = command.fields as Document | undefined;
  if (remove && u !== undefined)
    throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && u === undefined)
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && command.new === true)
    throw new CommandError(
      'FailedToParse',
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  if (remove && command.upsert === true)
    throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  if (Array.isArray(u)) throw new CommandError('BadValue', 'the stand-in does not support pipeline updates');

  const query = (command.query as Document | undefined) ?? {};
  const collection = remove ? storage.find(database, name) : storage.findOrCreate(database, name);
  const current = collection
    ? runFind(collection.candidates(query), { filter: query, sort: command.sort as Document | undefined, limit: 1 })[0]
    : undefined;
  if (remove) {
    if (current) collection!.remove(current);
    return { lastErrorObject: { n: current ? 1 : 0 }, value: returned(current ?? null, fields), ok: 1 };
  }
  if (!current) {
    if (command.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const id = upsertDocument(collection!, { q: query, u: u! });
    const inserted = runFind(collection!.all(), { filter: { _id: id }, limit: 1 })[0] ?? null;
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: id },
      value: command.new === true ? returned(inserted, fields) : null,
      ok: 1,
    };
  }
  const stored = collection!.replace(current, updatedDocument(current, u!, false));
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: returned(command.new === true ? stored : current, fields),
    ok: 1,
  };
};
